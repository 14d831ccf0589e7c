#include "parsers/x12/acks.h"

#include <algorithm>
#include <vector>

namespace edihub::x12 {

using edi::ErrorCode;

namespace {

// A 999's codes as a 997 says them (004010 has neither the implementation
// codes nor 13): a "not used" segment is unexpected (2), a "not used" element
// excluded (10), a code the guide does not use invalid (7), a component too
// many a data element too many (3).
std::string code_997(const std::string& code) {
  if (code == "I4") return "2";
  if (code == "I10") return "10";
  if (code == "I6") return "7";
  if (code == "13") return "3";  // too many components: 004010's AK403 has only "too many data elements"
  return code;
}

std::string pad(std::string_view s, size_t width) {
  std::string out(s.substr(0, width));
  out.resize(width, ' ');
  return out;
}

std::string zero_pad(std::string_view s, size_t width) {
  std::string out(s);
  if (out.size() < width) out.insert(0, width - out.size(), '0');
  return out;
}

// Writes segments in one interchange's delimiters and counts them.
class Writer {
 public:
  // The readability suffix only where the terminator is not itself a line
  // break: a newline after a newline terminator is an empty segment.
  Writer(const edi::Delimiters& d, std::string suffix)
      : d_(d), suffix_(d.terminator.is_line_break() ? std::string() : std::move(suffix)) {}

  void segment(std::initializer_list<std::string_view> elements) {
    // Trailing empty elements are omitted, as X12 requires.
    size_t n = elements.size();
    auto it = elements.begin();
    while (n > 1 && it[n - 1].empty()) --n;
    for (size_t i = 0; i < n; ++i) {
      if (i > 0) out_.push_back(d_.element);
      append_value(it[i]);
    }
    out_.append(d_.terminator.view());
    out_.append(suffix_);
    ++count_;
  }
  void raw(const std::string& isa) {
    out_.append(isa);
    out_.append(d_.terminator.view());
    out_.append(suffix_);
  }
  size_t count() const { return count_; }
  void reset_count() { count_ = 0; }

 private:
  // Values echoed from a broken original (an ISA13 read by separator count
  // can hold the terminator) must not split the ack: such bytes become '?',
  // or '_' / ' ' when '?' is itself the element separator or terminator.
  void append_value(std::string_view v) {
    const std::string_view t = d_.terminator.view();
    char safe = '?';
    for (char c : {'?', '_', ' '}) {
      if (c != d_.element && c != t[0]) {
        safe = c;
        break;
      }
    }
    for (size_t i = 0; i < v.size(); ++i) {
      if (v[i] == d_.element || v.compare(i, t.size(), t) == 0) {
        out_.push_back(safe);
        if (v[i] != d_.element) i += t.size() - 1;
      } else {
        out_.push_back(v[i]);
      }
    }
  }

 public:
  std::string take() { return std::move(out_); }
  const edi::Delimiters& delimiters() const { return d_; }

 private:
  edi::Delimiters d_;
  std::string suffix_;
  std::string out_;
  size_t count_ = 0;
};

// ISA of an acknowledgment: sender and receiver swapped, fixed widths.
std::string ack_isa(const edi::Interchange& o, const AckEnvelope& env, std::string_view version, char repetition) {
  const edi::Delimiters& d = o.delimiters;
  std::string sep(1, d.element);
  std::string isa = "ISA" + sep + "00" + sep + pad("", 10) + sep + "00" + sep + pad("", 10);
  const edi::Party& from = env.sender ? *env.sender : o.receiver;
  const edi::Party& to = env.recipient ? *env.recipient : o.sender;
  isa += sep + pad(from.qualifier, 2) + sep + pad(from.id, 15);
  isa += sep + pad(to.qualifier, 2) + sep + pad(to.id, 15);
  isa += sep + env.date.substr(env.date.size() >= 8 ? 2 : 0, 6) + sep + pad(env.time, 4);
  isa += sep + std::string(1, repetition) + sep + std::string(version);
  isa += sep + zero_pad(env.control_number, 9) + sep + "0" + sep + (o.test ? "T" : "P");
  isa += sep + std::string(1, d.component);
  return isa;
}

bool concerns(const edi::EnvelopeError& e, int group, int message) { return e.group == group && e.message == message; }

// AK5/IK5 and AK9 error codes for envelope errors.
const char* set_code(ErrorCode c) {
  switch (c) {
    case ErrorCode::SeMissing:
      return "2";
    case ErrorCode::SeControl:
      return "3";
    case ErrorCode::SeCount:
      return "4";
    case ErrorCode::InvalidSegmentTag:
    case ErrorCode::ApplicationRejected:
      return "5";
    default:
      return nullptr;
  }
}

const char* group_code(ErrorCode c) {
  switch (c) {
    case ErrorCode::GeMissing:
      return "3";
    case ErrorCode::GeControl:
      return "4";
    case ErrorCode::GeCount:
      return "5";
    default:
      return nullptr;
  }
}

enum class Flavor { Ak997, Ak999 };

// Long on purpose: AK2-AK5 / IK3-IK5 in one walk; replaced by the validator's acknowledgments (issue 22).
// NOLINTNEXTLINE(readability-function-cognitive-complexity)
std::string build_functional_ack(const edi::Interchange& o, const AckEnvelope& env, Flavor f) {
  const bool v999 = f == Flavor::Ak999;
  edi::Delimiters d = o.delimiters;
  char rep = v999 ? (d.repetition != 0 ? d.repetition : '^') : 'U';
  Writer w(d, env.segment_suffix);
  w.raw(ack_isa(o, env, v999 ? "00501" : "00401", rep));

  const std::string_view version = v999 ? "005010X231" : "004010";
  std::string app_sender = o.groups.empty() ? o.receiver.id : o.groups.front().receiver.id;
  std::string app_receiver = o.groups.empty() ? o.sender.id : o.groups.front().sender.id;
  w.segment({"GS", "FA", app_sender, app_receiver, env.date, env.time, env.group_control_number, "X", version});

  int set_number = 0;
  for (size_t g = 0; g < o.groups.size(); ++g) {
    const edi::Group& group = o.groups[g];
    std::string st02 = zero_pad(std::to_string(++set_number), 4);
    w.reset_count();
    w.segment({"ST", v999 ? "999" : "997", st02, v999 ? version : ""});
    w.segment({"AK1", group.functional_id, group.control_number, v999 ? group.version : ""});
    size_t accepted = 0, accepted_with_errors = 0;
    for (size_t m = 0; m < group.messages.size(); ++m) {
      const edi::Message& msg = group.messages[m];
      // AK203 is the implementation convention of ST03; absent when ST03 was.
      const bool st03 = v999 && msg.version != group.version;
      w.segment({"AK2", msg.type, msg.control_number, st03 ? msg.version : ""});
      for (const edi::SegmentError& se : msg.segment_errors) {
        w.segment(
            {v999 ? "IK3" : "AK3", se.tag, std::to_string(se.position), se.loop, v999 ? se.code : code_997(se.code)});
        for (const edi::ElementError& ee : se.elements) {
          std::string pos = std::to_string(ee.position);
          if (ee.component > 0) pos += d.component + std::to_string(ee.component);
          w.segment({v999 ? "IK4" : "AK4", pos, ee.reference, v999 ? ee.code : code_997(ee.code), ee.value});
          // 005010X231 2110 CTX: the element of the same segment whose presence triggered the rule.
          if (v999 && ee.trigger_position > 0)
            w.segment({"CTX", "SITUATIONAL TRIGGER", se.tag, std::to_string(se.position), se.loop,
                       std::to_string(ee.trigger_position), ee.trigger_reference});
        }
      }
      std::vector<std::string> codes;
      for (const auto& e : o.errors) {
        if (!concerns(e, static_cast<int>(g), static_cast<int>(m))) continue;
        const char* c = set_code(e.code);
        if (c && std::find(codes.begin(), codes.end(), c) == codes.end() && codes.size() < 5) codes.emplace_back(c);
      }
      const bool envelope_errors = !codes.empty();
      if (codes.empty() && !msg.segment_errors.empty()) codes.emplace_back("5");
      codes.resize(5);
      const bool ok = codes[0].empty();
      const bool noted = !ok && !envelope_errors && msg.errors_accepted;  // accepted, errors noted
      if (ok || noted) ++accepted;
      if (noted) ++accepted_with_errors;
      w.segment({v999 ? "IK5" : "AK5", ok ? "A" : noted ? "E" : "R", codes[0], codes[1], codes[2], codes[3], codes[4]});
    }
    std::vector<std::string> gcodes;
    for (const auto& e : o.errors) {
      if (e.group != static_cast<int>(g) || e.message >= 0) continue;
      const char* c = group_code(e.code);
      if (c && std::find(gcodes.begin(), gcodes.end(), c) == gcodes.end() && gcodes.size() < 5) gcodes.emplace_back(c);
    }
    gcodes.resize(5);
    std::string status;
    if (!gcodes[0].empty() || (accepted == 0 && !group.messages.empty())) {
      status = "R";
    } else if (accepted < group.messages.size()) {
      status = "P";
    } else {
      status = accepted_with_errors > 0 ? "E" : "A";
    }
    w.segment({"AK9", status, std::to_string(group.message_count), std::to_string(group.messages.size()),
               std::to_string(accepted), gcodes[0], gcodes[1], gcodes[2], gcodes[3], gcodes[4]});
    w.segment({"SE", std::to_string(w.count() + 1), st02});
  }
  w.segment({"GE", std::to_string(set_number), env.group_control_number});
  w.segment({"IEA", "1", zero_pad(env.control_number, 9)});
  return w.take();
}

}  // namespace

Ta1 ta1_for(const edi::Interchange& o) {
  for (const auto& e : o.errors) {
    if (e.group >= 0) continue;
    Ta1 t;
    t.status = 'R';
    switch (e.code) {
      case ErrorCode::IeaControl:
        t.note_code = "001";
        return t;
      case ErrorCode::IeaCount:
        t.note_code = "021";
        return t;
      case ErrorCode::Truncated:
      case ErrorCode::IeaMissing:
        t.note_code = "023";
        return t;
      case ErrorCode::InvalidDelimiters:
        t.note_code = "026";
        return t;
      case ErrorCode::IsaLength:
        t.note_code = "022";
        return t;
      case ErrorCode::UnexpectedSegment:
        t.note_code = "024";
        return t;
      case ErrorCode::SenderNotAuthorized:
        t.note_code = "006";
        return t;  // invalid interchange sender id
      case ErrorCode::RecipientNotOurs:
        t.note_code = "009";
        return t;  // unknown interchange receiver id
      case ErrorCode::IsaElement: {
        static const char* by_element[] = {"022", "010", "011", "012", "013", "005", "006", "007", "008",
                                           "014", "015", "016", "017", "018", "019", "020", "027"};
        t.note_code = by_element[e.element >= 0 && e.element <= 16 ? e.element : 0];
        return t;
      }
      default:
        t.note_code = "024";
        return t;
    }
  }
  return Ta1{};
}

Ta1 ta1_duplicate() { return Ta1{'R', "025"}; }

std::string build_ta1(const edi::Interchange& o, const Ta1& ta1, const AckEnvelope& env) {
  const edi::Delimiters& d = o.delimiters;
  char rep = d.repetition != 0 ? d.repetition : 'U';
  Writer w(d, env.segment_suffix);
  // ISA12 of the original when it is a version (5 digits), else 00401: a TA1
  // rejecting a bad ISA12 must not repeat it in its own ISA.
  const bool version_ok = o.version.size() == 5 &&
                          std::all_of(o.version.begin(), o.version.end(), [](char c) { return c >= '0' && c <= '9'; });
  w.raw(ack_isa(o, env, version_ok ? std::string_view(o.version) : "00401", rep));
  w.segment({"TA1", o.control_number, o.date, o.time, std::string(1, ta1.status), ta1.note_code});
  w.segment({"IEA", "0", zero_pad(env.control_number, 9)});
  return w.take();
}

std::string build_997(const edi::Interchange& o, const AckEnvelope& env) {
  return build_functional_ack(o, env, Flavor::Ak997);
}

std::string build_999(const edi::Interchange& o, const AckEnvelope& env) {
  return build_functional_ack(o, env, Flavor::Ak999);
}

}  // namespace edihub::x12
