# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
import os
from dataclasses import dataclass
from typing import Optional, Union

PathLike = Union[str, os.PathLike[str]]

__all__ = ["CheckResult", "History", "HistoryError", "Point"]

class HistoryError(RuntimeError): ...

@dataclass(frozen=True)
class CheckResult:
    outcome: str
    exit_code: int
    summary: str
    regressions: list[str] = ...
    improvements: list[str] = ...
    new_baselines: list[str] = ...
    not_judged: list[str] = ...

@dataclass(frozen=True)
class Point:
    experiment: str
    series: str
    unit: str
    commit: str
    position: int
    run_time: str
    median: float
    ci_low: Optional[float]
    ci_high: Optional[float]
    n: int
    method: str
    cache_state: str
    findings: list[str]
    machine: str

class History:
    db: Optional[str]
    command: str
    def __init__(self, db: Optional[PathLike] = None, command: Optional[PathLike] = None) -> None: ...
    def add(self, *reports: PathLike, commit: Optional[str] = None, branch: Optional[str] = None) -> list[str]: ...
    def check(self, since: Optional[str] = None) -> CheckResult: ...
    def show(self, series: str) -> str: ...
    def series(self) -> list[tuple[str, str]]: ...
    def points(self, series: Optional[str] = None) -> list[Point]: ...
    def export(self, format: str, commit: Optional[str] = None) -> str: ...
