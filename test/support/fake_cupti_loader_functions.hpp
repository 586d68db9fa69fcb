// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The libcupti functions gpuchrono's loader resolves (cupti_library.cpp) before it asks the version, for the
// stand-in CUPTIs of the refusal tests: they only have to exist, and are never called. Include inside
// extern "C". FAKE_CUPTI_MISSING_FUNCTION leaves cuptiGetStreamIdEx out (a CUPTI the loader must refuse).
int cuptiSubscribe() { return 1; }
int cuptiUnsubscribe() { return 1; }
int cuptiEnableCallback() { return 1; }
int cuptiGetCallbackName() { return 1; }
int cuptiActivityEnable() { return 1; }
int cuptiActivityDisable() { return 1; }
int cuptiActivityRegisterCallbacks() { return 1; }
int cuptiActivityGetNextRecord() { return 1; }
int cuptiActivityGetNumDroppedRecords() { return 1; }
int cuptiActivityFlushAll() { return 1; }
int cuptiActivitySetAttribute() { return 1; }
int cuptiGetTimestamp() { return 1; }
#if !defined(FAKE_CUPTI_MISSING_FUNCTION)
int cuptiGetStreamIdEx() { return 1; }
#endif
