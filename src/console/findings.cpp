#include "src/console/findings.h"

#include <cstdlib>
#include <string_view>

#include "parsers/edi/observer.h"
#include "parsers/edi/parser.h"
#include "parsers/edi/segment.h"
#include "src/documents/validator.h"

namespace edihub::console {

namespace {

// Collects the error segments of every acknowledgment message in the bytes.
class Collector : public edi::MessageObserver {
 public:
  explicit Collector(std::vector<FindingRow>* out) : out_(out) {}

  void begin(const edi::Interchange& ic, const edi::Group&, const edi::Message&) override { d_ = ic.delimiters; }

  void segment(const edi::Segment& s, uint32_t) override {
    if (out_->size() >= kMaxRows) return;
    const edi::Elements e = edi::split(s.text, d_);
    const std::string_view tag = s.tag;
    if (tag == "AK3" || tag == "IK3") {
      current_ = {};
      current_.tag = std::string(e[1]);
      current_.position = static_cast<uint32_t>(std::strtoul(std::string(e[2]).c_str(), nullptr, 10));
      current_.loop = std::string(e[3]);
      current_.code = std::string(e[4]);
      FindingRow row{current_.tag + " at segment " + std::to_string(current_.position), current_.loop,
                     std::string(documents::segment_error_text(current_.code)) + " (code " + current_.code + ")", ""};
      out_->push_back(std::move(row));
    } else if ((tag == "AK4" || tag == "IK4") && !current_.tag.empty()) {
      edi::ElementError ee;
      const std::string_view at = e[1];
      const size_t colon = at.find(d_.component);
      ee.position = std::atoi(std::string(at.substr(0, colon)).c_str());
      ee.component = colon == std::string_view::npos ? 0 : std::atoi(std::string(at.substr(colon + 1)).c_str());
      ee.reference = std::string(e[2]);
      ee.code = std::string(e[3]);
      ee.value = std::string(e[4]);
      const std::string text = documents::element_finding_text(current_, ee);
      const size_t split = text.rfind(": ");
      out_->push_back({current_.tag + " at segment " + std::to_string(current_.position), current_.loop,
                       text.substr(split + 2), text.substr(0, split)});
    } else if (tag == "CTX" && e[1].substr(0, e[1].find(d_.component)) == "SITUATIONAL TRIGGER" && !out_->empty() &&
               !out_->back().element.empty()) {
      // The 999's element context after an IK4: which element triggered the rule.
      const std::string_view at = e[5];
      const int position = std::atoi(std::string(at.substr(0, at.find(d_.component))).c_str());
      out_->back().what += documents::trigger_text(e[2], position, e[6].substr(0, e[6].find(d_.component)));
    } else if (tag == "UCS") {
      ucs_ = "segment " + std::string(e[1]);
      if (!e[2].empty()) out_->push_back({ucs_, "", "0085 " + std::string(e[2]), ""});
    } else if (tag == "UCD" && !ucs_.empty()) {
      std::string at(e[2]);
      for (char& c : at)
        if (c == d_.component) c = ':';
      out_->push_back({ucs_, "", "0085 " + std::string(e[1]), "element " + at});
    }
  }

  Findings end() override { return {}; }

 private:
  static constexpr size_t kMaxRows = 200;
  std::vector<FindingRow>* out_;
  edi::Delimiters d_;
  edi::SegmentError current_;
  std::string ucs_;
};

}  // namespace

std::vector<FindingRow> acknowledged_findings(const store::Receipt& receipt) {
  std::vector<FindingRow> out;
  if (receipt.body.find("AK3") == std::string::npos && receipt.body.find("IK3") == std::string::npos &&
      receipt.body.find("UCS") == std::string::npos)
    return out;
  Collector collector(&out);
  edi::ParseOptions options;
  options.observer = &collector;
  edi::parse(receipt.body, options);
  return out;
}

}  // namespace edihub::console
