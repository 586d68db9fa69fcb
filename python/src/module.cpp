// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The Python extension gpuchrono._gpuchrono: the C++ library's measure(), compare(), timers, reports and checks,
// bound with nanobind. No timing logic lives here: each function converts arguments, releases the GIL while the
// library works, and takes it back only to call the user's Python callable.
#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>
#include <nanobind/stl/function.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <gpuchrono/host.hpp>
#include <gpuchrono/core/finding_reaction.hpp>
#include "cupti/hold_counts.hpp"

#include <spin.hpp>  // the ground-truth spin kernel, for gpuchrono._testing (tests and bench/python)

#include <cstdint>
#include <exception>
#include <filesystem>
#include <memory>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace nb = nanobind;
using namespace nb::literals;

namespace {

cudaStream_t as_stream(std::uintptr_t handle) { return reinterpret_cast<cudaStream_t>(handle); }

nb::dict finding_dict(const gpuchrono::Finding& f) {
    nb::dict d;
    d["code"] = f.code;
    d["severity"] = std::string(gpuchrono::to_string(f.severity));
    d["message"] = f.message;
    d["fix"] = f.fix;
    d["where"] = f.where;
    return d;
}

nb::list findings_list(const gpuchrono::Findings& findings) {
    nb::list out;
    for (const gpuchrono::Finding& f : findings) out.append(finding_dict(f));
    return out;
}

nb::list activities_list(const gpuchrono::Measurement& m) {
    nb::list out;
    for (const gpuchrono::KernelActivity& a : m.activities()) {
        nb::dict d;
        d["name"] = a.name;
        d["device"] = a.device;
        d["stream"] = a.stream;
        d["start_ns"] = a.start_ns;
        d["end_ns"] = a.end_ns;
        d["duration_ns"] = a.duration_ns();
        d["correlation_id"] = a.correlation_id;
        out.append(d);
    }
    return out;
}

// A Python exception raised inside the user's callable, carried through the C++ loop and raised again after it
// (with its traceback), once the loop has unwound and cleaned up.
struct CallableFailed : std::exception {
    const char* what() const noexcept override { return "the measured Python callable raised"; }
};

// The library's timers, as context managers: created in __enter__, stopped in __exit__ (or never started).
template <class Policy>
class PyTimer {
public:
    explicit PyTimer(std::uintptr_t stream) : stream_(stream) {}
    // `where`: the Python line of the with-statement, which the block's findings name.
    void enter(std::string where) {
        if (timer_ || result_) throw std::logic_error("this timer was already entered: make a new one for each block");
        where_ = std::move(where);
        nb::gil_scoped_release unlocked;
        const gpuchrono::detail::ScopedCallerName caller(where_);
        timer_ = std::make_unique<gpuchrono::ScopedTimer<Policy>>(as_stream(stream_));
    }
    void exit() {
        if (!timer_) throw std::logic_error("__exit__ without __enter__");
        nb::gil_scoped_release unlocked;
        const gpuchrono::detail::ScopedCallerName caller(where_);
        result_ = timer_->stop();
        result_->resolve();
        timer_.reset();  // a KernelPolicy's hold of CUPTI ends with the block, not when Python collects the timer
    }
    const gpuchrono::Measurement& result() const {
        if (!result_) throw std::logic_error("the timer has not finished: read it after its with-block");
        return *result_;
    }

private:
    std::uintptr_t stream_;
    std::string where_;
    std::unique_ptr<gpuchrono::ScopedTimer<Policy>> timer_;
    std::optional<gpuchrono::Measurement> result_;
};

template <class Policy>
void bind_timer(nb::module_& m, const char* name) {
    using T = PyTimer<Policy>;
    nb::class_<T>(m, name)
        .def(nb::init<std::uintptr_t>(), "stream"_a)
        .def("_enter", &T::enter, "where"_a)
        .def("_exit", &T::exit)
        .def_prop_ro("duration_ns", [](const T& t) { return t.result().failed() ? std::nan("") : t.result().duration().ns(); })
        .def_prop_ro("error", [](const T& t) { return t.result().failed() ? t.result().error() : std::string(); })
        .def_prop_ro("span_ns", [](const T& t) -> std::optional<double> {
            if (auto s = t.result().span()) return s->ns();
            return std::nullopt;
        })
        .def_prop_ro("kernels", [](const T& t) { return activities_list(t.result()); })
        .def_prop_ro("findings", [](const T& t) { return findings_list(t.result().findings()); });
}

// The method and cache state a Python call names, parsed alike for measure() and compare(fn_a, fn_b): "auto"
// is the Python spelling of "automatic", and a name either parser refuses is a ValueError that lists `methods`,
// the ones the call accepts.
template <class Options>
void set_method_and_cache(Options& o, const std::string& method, const std::string& cache, const std::string& methods) {
    const auto m = gpuchrono::method_from_string(method == "auto" ? "automatic" : method);
    if (!m) throw std::invalid_argument("method must be " + methods + ", not \"" + method + "\"");
    o.method = *m;
    const auto c = gpuchrono::cache_state_from_string(cache);
    if (!c) throw std::invalid_argument("cache must be \"warm\" or \"cold\", not \"" + cache + "\"");
    o.cache = *c;
}

gpuchrono::MeasureOptions measure_options(const std::string& method, const std::string& cache, double target_width,
                                          double max_time_s, std::uint64_t bytes_read, std::uint64_t bytes_written) {
    gpuchrono::MeasureOptions o;
    set_method_and_cache(o, method, cache, "\"auto\", \"kernel\", \"graph\", \"event\" or \"host\"");
    o.target_relative_width = target_width;
    o.max_time = gpuchrono::Duration::from_s(max_time_s);
    o.bytes_read = bytes_read;
    o.bytes_written = bytes_written;
    o.validate();  // std::invalid_argument naming the field -> ValueError
    return o;
}

// `fn` as the library's launch function, for measure() and compare(fn_a, fn_b) alike: each call takes the GIL
// and passes the stream as an int; an exception fn raises is kept in `raised`, to be raised again with its
// traceback once the library has unwound, and CallableFailed carries the failure through the library meanwhile.
// fn and raised must outlive the returned function.
gpuchrono::detail::LaunchFn python_launch(nb::callable& fn, std::optional<nb::python_error>& raised) {
    return [&fn, &raised](cudaStream_t s) {
        nb::gil_scoped_acquire locked;
        try {
            fn(nb::int_(reinterpret_cast<std::uintptr_t>(s)));
        } catch (nb::python_error& e) {
            raised.emplace(std::move(e));
            throw CallableFailed();
        }
    };
}

gpuchrono::Series run_measure(nb::callable fn, const std::string& name, std::uintptr_t stream,
                              const gpuchrono::MeasureOptions& options, const std::string& where) {
    std::optional<nb::python_error> raised;
    gpuchrono::Series series;
    {
        nb::gil_scoped_release unlocked;  // other Python threads run while the loop waits on the GPU
        // The stream measure() hands over (the graph method's capture stream, not always the user's) goes to fn;
        // the package's wrapper makes it torch's and CuPy's current stream for callables that take none.
        const gpuchrono::detail::LaunchFn launch = python_launch(fn, raised);
        const gpuchrono::detail::ScopedCallerName caller(where);
        try {
            series = gpuchrono::detail::measure_erased(name, as_stream(stream), launch, true, options,
                                                       std::source_location::current());
            // The automatic method may have refused a method whose set-up called fn and fell back to another
            // that succeeded: the exception fn raised then belongs to the refused method, not to the result.
            raised.reset();
        } catch (const CallableFailed&) {
        }
    }
    if (raised) throw std::move(*raised);
    return series;
}

// The verdict and the change with its interval, first in the dict of both comparisons (of two Series and of two
// callables), under the same keys: Python code reads either result the same way.
template <class Comparison>
nb::dict verdict_dict(const Comparison& c) {
    nb::dict d;
    d["verdict"] = std::string(gpuchrono::to_string(c.verdict));
    d["change"] = c.change;
    d["change_low"] = c.change_low;
    d["change_high"] = c.change_high;
    return d;
}

// compare(fn_a, fn_b): both callables interleaved by the C++ library; an exception one of them raised is raised
// again here, with its traceback, after the comparison has unwound.
nb::dict run_compare_fns(nb::callable fn_a, nb::callable fn_b, std::uintptr_t stream, const std::string& method,
                         const std::string& cache, double threshold, double confidence, double max_time_s,
                         const std::string& where) {
    gpuchrono::SequentialCompareOptions o;
    set_method_and_cache(o, method, cache, "\"auto\", \"kernel\" or \"event\"");
    o.stream = as_stream(stream);
    o.threshold = threshold;
    o.confidence = confidence;
    o.max_time = gpuchrono::Duration::from_s(max_time_s);
    o.validate();  // std::invalid_argument naming the field -> ValueError
    std::optional<nb::python_error> raised;
    gpuchrono::SequentialComparison r;
    {
        nb::gil_scoped_release unlocked;
        const gpuchrono::detail::LaunchFn a = python_launch(fn_a, raised), b = python_launch(fn_b, raised);
        const gpuchrono::detail::ScopedCallerName caller(where);
        try {
            r = gpuchrono::detail::compare_interleaved(a, true, b, true, o, std::source_location::current());
        } catch (...) {
            if (!raised) throw;
        }
    }
    if (raised) throw std::move(*raised);
    nb::dict d = verdict_dict(r);
    d["plain_change"] = r.plain_change;
    d["plain_low"] = r.plain_low;
    d["plain_high"] = r.plain_high;
    d["looks"] = r.looks;
    d["samples_a"] = r.samples_a;
    d["samples_b"] = r.samples_b;
    d["median_a_ns"] = r.median_a.ns();
    d["median_b_ns"] = r.median_b.ns();
    d["drift_a"] = r.drift_a;
    d["drift_b"] = r.drift_b;
    d["wall_time_s"] = r.wall_time.s();
    d["method"] = std::string(gpuchrono::to_string(r.method));
    d["reason"] = r.reason;
    std::vector<std::string> notes = r.notes;
    d["notes"] = notes;
    std::ostringstream text;
    text << r;
    d["text"] = text.str();
    return d;
}

// The Python Series: the library's Series plus its successful samples in one contiguous buffer, made on the first
// read of samples_ns after a change and shared by every array handed out until the next one. Each array is a
// read-only view of that buffer (no copy per read) and holds a reference to it, so it stays valid after the Series
// has grown (a later read gets a new buffer) or been garbage-collected.
struct PySeries : gpuchrono::Series {
    using gpuchrono::Series::Series;
    explicit PySeries(gpuchrono::Series&& s) : gpuchrono::Series(std::move(s)) {}

    nb::ndarray<nb::numpy, const double, nb::ndim<1>> samples_ns() const {
        if (!samples_ || samples_of_ != size()) {
            auto values = std::make_shared<std::vector<double>>();
            for (gpuchrono::Duration d : durations()) values->push_back(d.ns());
            samples_ = std::move(values);
            samples_of_ = size();
        }
        using Buffer = std::shared_ptr<const std::vector<double>>;
        auto* held = new Buffer(samples_);
        nb::capsule owner(held, [](void* p) noexcept { delete static_cast<Buffer*>(p); });
        return nb::ndarray<nb::numpy, const double, nb::ndim<1>>((*held)->data(), {(*held)->size()}, owner);
    }

private:
    mutable std::shared_ptr<const std::vector<double>> samples_;
    mutable std::size_t samples_of_ = 0;  // size() when samples_ was made: a Series only grows
};

nb::dict record_dict(const gpuchrono::Series& s) {
    nb::dict d;
    const auto& r = s.measure_record();
    if (!r) return d;
    d["method"] = std::string(gpuchrono::to_string(r->method));
    d["method_note"] = r->method_note;
    d["cache"] = std::string(gpuchrono::to_string(r->cache));
    d["calls_per_sample"] = r->calls_per_sample;
    d["ci_low_ns"] = r->interval.low_ns;
    d["ci_high_ns"] = r->interval.high_ns;
    d["ci_coverage"] = r->interval.coverage;
    d["relative_width"] = r->interval.relative_width();
    d["converged"] = r->converged();
    d["sampling_time_s"] = r->sampling_time.s();
    d["warmup_time_s"] = r->warmup.time.s();
    d["warmup_calls"] = r->warmup.calls;
    d["samples"] = r->interval.samples;
    d["bytes_per_second"] = r->bytes_per_second();
    d["text"] = gpuchrono::to_string(*r);
    return d;
}

}  // namespace

// gpuchrono.hold_cupti() (python/gpuchrono/_cupti.py): a CuptiHold for a with-block, and the hold's counts for tests.
void bind_cupti_hold(nb::module_& m) {
    using gpuchrono::CuptiHold;
    nb::class_<CuptiHold>(m, "_CuptiHold")
        .def("__init__", [](CuptiHold* h) {
            nb::gil_scoped_release unlocked;  // the first hold sets CUPTI up
            new (h) CuptiHold();
        })
        .def_prop_ro("held", &CuptiHold::held)
        .def_prop_ro("why_not", [](const CuptiHold& h) { return h.why_not(); })
        .def("release", [](CuptiHold& h) {
            nb::gil_scoped_release unlocked;  // the last hold waits for pending scopes' work
            h.release();
        });
    m.def("_release_cupti", [] {
        nb::gil_scoped_release unlocked;  // giving back waits for pending scopes' work
        return gpuchrono::release_cupti();
    });
    m.def("_set_cupti_taken", [](std::string tool) { gpuchrono::cupti::set_cupti_taken_by(std::move(tool)); });
    m.def("_cupti_acquisitions", &gpuchrono::cupti::cupti_acquisitions);
    m.def("_cupti_holders", &gpuchrono::cupti::cupti_holders);
}

NB_MODULE(_gpuchrono, m) {
    m.doc() = "gpuchrono's C++ library (use the package gpuchrono, which wraps this module)";
    // The library's version, the one project(gpuchrono VERSION ...) gives every package (gpuchrono.__version__).
    m.attr("__version__") = std::string(gpuchrono::version().text);
    // Findings reach Python's warnings (gpuchrono.TimingWarning, issued by the package), not stderr: the library
    // collects them, whatever GPUCHRONO_FINDINGS says, and the package warns once per code and call site.
    gpuchrono::set_finding_reaction(gpuchrono::Reaction::collect);

    nb::class_<PySeries>(m, "Series")
        .def(nb::init<std::string>(), "name"_a)
        .def_prop_ro("name", [](const PySeries& s) { return s.name(); })
        .def("__len__", [](const PySeries& s) { return s.size(); })
        .def("add_ns", [](PySeries& s, double ns) {
            s.add(gpuchrono::Measurement::completed("host", gpuchrono::Duration::from_ns(ns), -1));
        }, "ns"_a, "Adds a completed host-clock measurement (synthetic series, tests)")
        // `reference`: export the buffer as it is (move or copy would copy it); its capsule keeps it alive.
        .def_prop_ro("samples_ns", &PySeries::samples_ns, nb::rv_policy::reference)
        .def_prop_ro("failed_count", [](const PySeries& s) { return s.failed_count(); })
        .def_prop_ro("first_error", [](const PySeries& s) { return s.first_error(); })
        .def_prop_ro("findings", [](const PySeries& s) { return findings_list(s.findings()); })
        .def_prop_ro("record", [](const PySeries& s) { return record_dict(s); })
        .def_prop_ro("summary_findings", [](const PySeries& s) {
            return findings_list(gpuchrono::summary(s).findings);
        })
        // The same, the findings naming `where` (the Python caller's file:line) as their place.
        .def("_summary_findings", [](const PySeries& s, const std::string& where) {
            const gpuchrono::detail::ScopedCallerName caller(where);
            return findings_list(gpuchrono::summary(s).findings);
        }, "where"_a)
        .def("__repr__", [](const PySeries& s) {
            return "<gpuchrono.Series '" + s.name() + "', " + std::to_string(s.size()) + " samples>";
        });

    m.def("_measure", [](nb::callable fn, const std::string& name, std::uintptr_t stream,
                         const std::string& method, const std::string& cache, double target_width, double max_time_s,
                         std::uint64_t bytes_read, std::uint64_t bytes_written, const std::string& where) {
        const auto options = measure_options(method, cache, target_width, max_time_s, bytes_read, bytes_written);
        return PySeries(run_measure(std::move(fn), name, stream, options, where));
    }, "fn"_a, "name"_a, "stream"_a, "method"_a, "cache"_a, "target_width"_a, "max_time_s"_a,
       "bytes_read"_a, "bytes_written"_a, "where"_a);

    m.def("_check_options", [](const std::string& method, const std::string& cache, double target_width, double max_time_s) {
        (void)measure_options(method, cache, target_width, max_time_s, 0, 0);
    });

    m.def("_compare", [](const PySeries& a, const PySeries& b) {
        const gpuchrono::Comparison c = gpuchrono::compare(a, b);
        nb::dict d = verdict_dict(c);
        d["p_value"] = c.p_value;
        d["median_a_ns"] = c.median_a.ns();
        d["median_b_ns"] = c.median_b.ns();
        d["reason"] = c.reason;
        return d;
    });

    m.def("_compare_fns", &run_compare_fns, "fn_a"_a, "fn_b"_a, "stream"_a, "method"_a, "cache"_a, "threshold"_a,
          "confidence"_a, "max_time_s"_a, "where"_a);

    m.def("_check", [](const std::string& which, const PySeries& a, const PySeries* b) {
        gpuchrono::CheckResult r;
        if (which == "not_slower" && b) r = gpuchrono::check_not_slower(a, *b);
        else if (which == "faster" && b) r = gpuchrono::check_faster(a, *b);
        else if (which == "no_findings") r = gpuchrono::check_no_findings(a);
        else throw std::invalid_argument("unknown check " + which);
        return std::make_pair(r.passed, r.message);
    }, "which"_a, "a"_a, "b"_a.none() = nb::none());

    m.def("_write_report", [](const std::vector<const PySeries*>& series, const std::string& folder) {
        gpuchrono::SeriesSet set;
        for (const PySeries* s : series) set[s->name()] = *s;
        std::vector<std::string> written;
        for (const auto& f : gpuchrono::write_report(set, std::filesystem::path(folder))) written.push_back(f.path.string());
        return written;
    });

    m.def("device_count", &gpuchrono::device_count);
    m.def("no_device_reason", &gpuchrono::no_device_reason);
    m.def("kernel_method_available", []() {
        std::string why;
        const bool ok = gpuchrono::kernel_method_available(&why);
        return std::make_pair(ok, why);
    });

    bind_timer<gpuchrono::KernelPolicy>(m, "_KernelTimer");
    bind_timer<gpuchrono::EventPolicy>(m, "_EventTimer");
    bind_timer<gpuchrono::HostSyncPolicy>(m, "_HostTimer");
    bind_cupti_hold(m);

    nb::module_ testing = m.def_submodule("_testing", "ground-truth kernels for tests and benchmarks");
    testing.def("spin", [](double ns, std::uintptr_t stream) {
        gpuchrono::kernels::launch_spin(gpuchrono::Duration::from_ns(ns), as_stream(stream));
    }, "ns"_a, "stream"_a = 0, "Launches a kernel that spins until %globaltimer advanced by ns");

    nb::register_exception_translator([](const std::exception_ptr& p, void*) {
        try {
            std::rethrow_exception(p);
        } catch (const gpuchrono::CudaError& e) {
            PyErr_SetString(PyExc_RuntimeError, e.what());
        } catch (const gpuchrono::TimerError& e) {
            PyErr_SetString(PyExc_RuntimeError, e.what());
        }
    });
}
