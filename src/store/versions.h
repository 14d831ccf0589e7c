// The rule both backends book documents by: versions apply in document-date
// order, and on the same date original < replace < cancel. An older version
// arriving late changes nothing.
#pragma once

#include <string>

#include "src/business/documents.h"
#include "src/store/transaction.h"

namespace edihub::store {

// The version of a document already booked, when there is one.
struct StoredVersion {
  bool exists = false;
  std::string date, purpose;
};

// What to do with an incoming version: insert, replace, cancel, or ignore as older.
Applied decide_version(const StoredVersion& stored, const std::string& date, business::Purpose purpose);

}  // namespace edihub::store
