#include "src/store/versions.h"

namespace edihub::store {

namespace {

// Dates are digits CCYYMMDD[HHMM[SS]]: pad to compare versions of a document.
std::string date_key(const std::string& date) {
  std::string d = date.substr(0, 14);
  d.resize(14, '0');
  return d;
}

int purpose_rank(business::Purpose p) {
  switch (p) {
    case business::Purpose::Original:
      return 0;
    case business::Purpose::Replace:
      return 1;
    case business::Purpose::Cancel:
      return 2;
  }
  return 0;
}

business::Purpose purpose_from(const std::string& s) {
  if (s == "replace") return business::Purpose::Replace;
  if (s == "cancel") return business::Purpose::Cancel;
  return business::Purpose::Original;
}

}  // namespace

Applied decide_version(const StoredVersion& stored, const std::string& date, business::Purpose purpose) {
  const bool cancel = purpose == business::Purpose::Cancel;
  if (!stored.exists) return cancel ? Applied::Cancelled : Applied::Inserted;
  const std::string a = date_key(date), b = date_key(stored.date);
  const bool newer = a != b ? a > b : purpose_rank(purpose) > purpose_rank(purpose_from(stored.purpose));
  if (!newer) return Applied::IgnoredOlder;
  return cancel ? Applied::Cancelled : Applied::Replaced;
}

}  // namespace edihub::store
