// A SAX handler for nlohmann-json that keeps only what trace::TraceEvent needs, with the
// reader's type checks (see read_trace.hpp for the rules).
#include "io/trace/event_sax.hpp"

#include <array>
#include <cmath>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>

namespace perfmodel::io {
namespace {

using json = nlohmann::json;

enum class Role {
  top,
  events,
  event,
  args,
  dims,
  dims_entry,
  dims_list,
  strides,
  strides_entry,
  types,
  concrete,
  triple,
  skip
};

// A dimension above 2^50 cannot belong to a tensor the model counts (graph.cpp caps tensors at
// 2^50 elements); larger "Input Dims" are corrupt, not shapes.
constexpr int64_t kMaxDim = int64_t{1} << 50;
// Times in microseconds: a duration above 10^12 us (11.6 days) or a timestamp beyond 10^18 us
// (31,700 years from the epoch) is corrupt, and would print as a 60-digit time.
constexpr double kMaxDurUs = 1e12, kMaxTsUs = 1e18;

struct Frame {
  Role role;
  bool object;
  std::string key;  // current key (objects)
  size_t count = 0; // elements seen (arrays)
};

// A value as the handler sees it: its JSON type name and, for numbers, its value.
struct Value {
  const char *type; // "string", "number", "boolean", "null", "object", "array"
  std::optional<int64_t> integer = std::nullopt;
  std::optional<double> number = std::nullopt;
  const std::string *text = nullptr;
  bool container() const { return type[0] == 'o' || type[0] == 'a'; }
  std::string show() const {
    if (integer)
      return std::to_string(*integer);
    if (number)
      return json(*number).dump();
    if (text)
      return json(*text).dump();
    return type;
  }
};

class Handler : public nlohmann::json_sax<json> {
public:
  Handler(std::vector<RawEvent> &out, SaxProblem &p) : out_(out), p_(p) {}

  bool null() override { return value({"null"}); }
  bool boolean(bool) override { return value({"boolean"}); }
  bool number_integer(number_integer_t v) override {
    return value({"number", v, static_cast<double>(v)});
  }
  bool number_unsigned(number_unsigned_t v) override {
    std::optional<int64_t> i;
    if (v <= static_cast<uint64_t>(INT64_MAX))
      i = static_cast<int64_t>(v);
    return value({"number", i, static_cast<double>(v)});
  }
  bool number_float(number_float_t v, const string_t &) override {
    return value({"number", std::nullopt, v});
  }
  bool string(string_t &s) override { return value({"string", std::nullopt, std::nullopt, &s}); }
  bool binary(binary_t &) override { return value({"binary"}); }
  bool start_object(std::size_t) override { return open(true); }
  bool start_array(std::size_t) override { return open(false); }
  bool key(string_t &k) override {
    stack_.back().key = k;
    return true;
  }
  bool end_object() override { return close(); }
  bool end_array() override { return close(); }
  bool parse_error(std::size_t pos, const std::string &,
                   const nlohmann::detail::exception &e) override {
    p_.syntax = true;
    p_.byte = pos;
    p_.message = e.what();
    return false;
  }

  bool saw_events() const { return saw_events_; }

private:
  bool fail(const std::string &msg, size_t index, const std::string &name) {
    p_.message = msg;
    p_.index = index;
    p_.event_name = name;
    return false;
  }
  bool doc_fail(const std::string &msg) { return fail(msg, SaxProblem::npos, ""); }
  // A type error inside an event: only reported if the event turns out to be complete ("X").
  void note(const std::string &msg) {
    if (pending_.empty())
      pending_ = msg;
  }

  bool value(const Value &v) { return place(v, false); }

  bool open(bool object) {
    Value v{object ? "object" : "array"};
    if (!place(v, object))
      return false;
    return true;
  }
  void push(Role r, bool object) { stack_.push_back(Frame{r, object, "", 0}); }

  // Decides what a value (scalar or opening container) means in its parent; pushes a frame for
  // containers.
  bool place(const Value &v, bool object = false) {
    if (stack_.empty()) {
      if (!v.container())
        return doc_fail(std::string("not a profiler trace: expected an object with "
                                    "\"traceEvents\", found ") +
                        v.type);
      push(object ? Role::top : Role::events, object);
      if (!object)
        saw_events_ = true;
      return true;
    }
    Frame &f = stack_.back();
    const std::string &k = f.key;
    switch (f.role) {
    case Role::top:
      if (k == "traceEvents") {
        saw_events_ = true;
        if (!v.container() || object)
          return doc_fail(std::string("\"traceEvents\" must be a list, not ") + v.type);
        push(Role::events, false);
        return true;
      }
      break;
    case Role::events: {
      index_ = f.count++;
      if (!object)
        return fail(std::string("an event must be an object, not ") + v.type, index_, "");
      cur_ = RawEvent{};
      cur_.event.index = index_;
      ph_.clear();
      ph_error_.clear();
      pending_.clear();
      has_name_ = has_ts_ = has_dur_ = false;
      ext_upper_ = ext_lower_ = -1;
      push(Role::event, true);
      return true;
    }
    case Role::event:
      return event_field(k, v, object);
    case Role::args:
      return args_field(k, v, object);
    case Role::dims:
      if (!v.container() || object) {
        note(std::string("args \"Input Dims\" entries must be lists, not ") + v.type);
        break;
      }
      cur_.event.input_dims.emplace_back();
      tensor_ = true;
      push(Role::dims_entry, false);
      return true;
    case Role::dims_entry:
      if (v.container()) { // a TensorList argument: no single shape
        tensor_ = false;
        if (object) {
          note("args \"Input Dims\" entries must be lists, not object");
          break;
        }
        push(Role::dims_list, false);
        return true;
      }
      if (!v.integer || *v.integer < 0) {
        note("args \"Input Dims\" must hold non-negative integers, found " + v.show());
        return true;
      }
      if (*v.integer > kMaxDim) {
        note("args \"Input Dims\" holds " + v.show() + ", above 2^50 (the tensor size limit)");
        return true;
      }
      cur_.event.input_dims.back().push_back(*v.integer);
      return true;
    case Role::dims_list: // one tensor of a TensorList: integers only, no deeper nesting
      if (v.container()) {
        note("args \"Input Dims\" nests lists deeper than a list of tensors");
        break;
      }
      if (!v.integer || *v.integer < 0 || *v.integer > kMaxDim)
        note("args \"Input Dims\" must hold integers from 0 to 2^50, found " + v.show());
      return true;
    case Role::strides: // one entry per argument: a tensor's strides, else empty
      cur_.event.input_strides.emplace_back();
      if (v.container() && !object) {
        push(Role::strides_entry, false);
        return true;
      }
      if (v.container())
        break;
      return true;
    case Role::strides_entry: // a TensorList's entry nests lists: no single tensor's strides
      if (v.container() || !v.integer || *v.integer < 0 || *v.integer > kMaxDim) {
        cur_.event.input_strides.back() = {-1};
        if (v.container())
          break;
        return true;
      }
      cur_.event.input_strides.back().push_back(*v.integer);
      return true;
    case Role::types:
    case Role::concrete:
      if (!v.container()) {
        (f.role == Role::types ? cur_.event.input_types : cur_.event.concrete_inputs)
            .push_back(v.text ? *v.text : "");
        return true;
      }
      break;
    case Role::triple:
      if (!v.integer)
        note("args \"" + triple_key_ + "\" must be a list of 3 integers");
      else
        triple_.push_back(*v.integer);
      if (!v.container())
        return true;
      break;
    case Role::skip:
      break;
    }
    if (v.container())
      push(Role::skip, object);
    return true;
  }

  bool event_field(const std::string &k, const Value &v, bool object) {
    if (k == "ph") {
      if (v.text)
        ph_ = *v.text;
      else
        ph_error_ = std::string("\"ph\" must be a string, not ") + v.type;
    } else if (k == "name") {
      if (v.text) {
        cur_.event.name = *v.text;
        has_name_ = true;
      } else {
        note(std::string("\"name\" must be a string, not ") + v.type);
      }
    } else if (k == "cat") {
      if (v.text)
        cur_.event.kind = trace::kind_of_category(*v.text);
      else
        note(std::string("\"cat\" must be a string, not ") + v.type);
    } else if (k == "ts" || k == "dur") {
      if (!v.number) {
        note("\"" + k + "\" must be a number, not " + v.type);
      } else if (k == "ts" ? !(std::abs(*v.number) <= kMaxTsUs) : !(*v.number <= kMaxDurUs)) {
        note("\"" + k + "\" is " + v.show() + " us, above " + (k == "ts" ? "1e18" : "1e12") +
             " us");
      } else {
        (k == "ts" ? cur_.ts_us : cur_.dur_us) = *v.number;
        (k == "ts" ? has_ts_ : has_dur_) = true;
      }
    } else if (k == "pid" || k == "tid") {
      if (!v.integer && !v.text) // a fraction or another type is no process or thread id
        note("\"" + k + "\" must be an integer or a string, not " + v.show());
      std::string s = v.integer ? std::to_string(*v.integer) : v.text ? *v.text : v.show();
      (k == "pid" ? cur_.event.pid : cur_.event.tid) = s;
    } else if (k == "args") {
      if (object) {
        push(Role::args, true);
        return true;
      }
      if (v.type[0] != 'n' || v.number)
        note(std::string("\"args\" must be an object, not ") + v.type);
    }
    if (v.container())
      push(Role::skip, object);
    return true;
  }

  bool args_field(const std::string &k, const Value &v, bool object) {
    if (k == "External id" || k == "external id" || k == "correlation") {
      if (v.integer) {
        (k == "correlation" ? cur_.event.correlation
         : k[0] == 'E'      ? ext_upper_
                            : ext_lower_) = *v.integer;
      } else if (std::string(v.type) != "null") {
        note("args \"" + k + "\" must be an integer, not " + v.type);
      }
    } else if (k == "Input Dims" || k == "Input dims") {
      if (v.container() && !object) {
        cur_.event.input_dims.clear();
        push(Role::dims, false);
        return true;
      }
      note(std::string("args \"Input Dims\" must be a list, not ") + v.type);
    } else if (k == "Input Strides" && v.container() && !object) {
      cur_.event.input_strides.clear();
      push(Role::strides, false);
      return true;
    } else if ((k == "Input type" || k == "Concrete Inputs") && v.container() && !object) {
      push(k == "Input type" ? Role::types : Role::concrete, false);
      return true;
    } else if (k == "grid" || k == "block") {
      if (v.container() && !object) {
        triple_key_ = k;
        triple_.clear();
        push(Role::triple, false);
        return true;
      }
      note("args \"" + k + "\" must be a list of 3 integers");
    }
    if (v.container())
      push(Role::skip, object);
    return true;
  }

  bool close() {
    Frame f = stack_.back();
    stack_.pop_back();
    if (f.role == Role::dims_entry && !tensor_)
      cur_.event.input_dims.back().clear();
    if (f.role == Role::dims_entry && tensor_) {
      int64_t n = 1;
      for (int64_t d : cur_.event.input_dims.back())
        if (__builtin_mul_overflow(n, d, &n) || n > kMaxDim) {
          note("args \"Input Dims\" holds a tensor of more than 2^50 elements");
          break;
        }
    }
    if (f.role == Role::strides_entry && !cur_.event.input_strides.back().empty() &&
        cur_.event.input_strides.back()[0] < 0)
      cur_.event.input_strides.back().clear(); // not one tensor's strides
    if (f.role == Role::triple) {
      if (triple_.size() != 3) {
        note("args \"" + triple_key_ + "\" must be a list of 3 integers");
      } else {
        std::array<int64_t, 3> t{triple_[0], triple_[1], triple_[2]};
        (triple_key_ == "grid" ? cur_.event.grid : cur_.event.block) = t;
      }
    }
    if (f.role == Role::event)
      return finish_event();
    return true;
  }

  bool finish_event() {
    trace::TraceEvent &e = cur_.event;
    if (!ph_error_.empty())
      return fail(ph_error_, index_, e.name);
    if (ph_ != "X")
      return true;
    if (!pending_.empty())
      return fail(pending_, index_, e.name);
    if (!has_name_)
      return fail("missing \"name\"", index_, "");
    if (!has_ts_)
      return fail("missing \"ts\"", index_, e.name);
    if (!has_dur_)
      return fail("missing \"dur\"", index_, e.name);
    if (cur_.dur_us < 0)
      return fail("\"dur\" is negative", index_, e.name);
    e.external_id = ext_upper_ >= 0 ? ext_upper_ : ext_lower_;
    if (!e.is_device())
      e.grid = e.block = std::nullopt;
    if ((e.kind == trace::EventKind::op || e.kind == trace::EventKind::user_annotation) &&
        e.name.rfind("ProfilerStep#", 0) == 0) {
      e.kind = trace::EventKind::profiler_step;
      try {
        e.step = std::stoi(e.name.substr(13));
      } catch (const std::exception &) {
        return fail("step name \"" + e.name + "\" has no number after '#'", index_, e.name);
      }
    }
    out_.push_back(std::move(cur_));
    return true;
  }

  std::vector<RawEvent> &out_;
  SaxProblem &p_;
  std::vector<Frame> stack_;
  bool saw_events_ = false;
  size_t index_ = 0;
  RawEvent cur_;
  std::string ph_, ph_error_, pending_, triple_key_;
  bool has_name_ = false, has_ts_ = false, has_dur_ = false, tensor_ = true;
  int64_t ext_upper_ = -1, ext_lower_ = -1;
  std::vector<int64_t> triple_;
};

} // namespace

bool read_events_sax(std::string_view text, std::vector<RawEvent> &out, SaxProblem &problem) {
  Handler h(out, problem);
  const bool ok = json::sax_parse(text.begin(), text.end(), &h);
  if (!ok)
    return false;
  if (!h.saw_events()) {
    problem.message = "not a profiler trace: the top-level object has no \"traceEvents\"";
    return false;
  }
  return true;
}

} // namespace perfmodel::io
