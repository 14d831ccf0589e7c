#include "src/store/console.h"

#include "src/store/document_sql.h"

namespace edihub::store {

SqlFilter message_search_sql(const MessageQuery& q, bool postgresql) {
  SqlFilter f;
  auto place = [&](SqlValue v) {
    f.values.push_back(std::move(v));
    const std::string n = std::to_string(f.values.size());
    return postgresql ? "$" + n + (f.values.back().is_number ? "::bigint" : "::text") : "?" + n;
  };
  auto text = [&](const std::string& t) { return place({t, 0, false}); };
  auto number = [&](int64_t v) { return place({"", v, true}); };
  auto list = [&](const std::vector<std::string>& values) {
    std::string out;
    for (const auto& v : values) out += (out.empty() ? "" : ", ") + text(v);
    return out;
  };
  std::vector<std::string> clauses;
  if (!q.partner_id.empty()) clauses.push_back("partner_id = " + text(q.partner_id));
  if (!q.protocol.empty()) clauses.push_back("protocol = " + text(q.protocol));
  if (!q.outcome.empty()) clauses.push_back("outcome = " + text(q.outcome));
  if (!q.text.empty())
    clauses.push_back("(transport_id = " + text(q.text) +
                      (q.keys.empty() ? std::string() : " OR message_id IN (" + list(q.keys) + ")") + ")");
  if (!q.document.empty()) {
    const std::vector<std::string> partners =
        !q.partner_id.empty() ? std::vector<std::string>{q.partner_id} : q.document_partners;
    clauses.push_back("message_id IN (" +
                      sources_of_number_sql(text(q.document), partners.empty() ? std::string() : list(partners)) + ")");
  }
  if (q.since_ms) clauses.push_back("received_at >= " + number(q.since_ms));
  if (q.until_ms) clauses.push_back("received_at <= " + number(q.until_ms));
  if (q.before_id) clauses.push_back("id < " + number(q.before_id));
  for (const auto& c : clauses) f.where += (f.where.empty() ? "" : " AND ") + c;
  if (f.where.empty()) f.where = "1 = 1";
  return f;
}

Result<std::optional<Operator>> ConsoleStore::find_operator(const std::string& name) {
  if (name.empty()) return std::optional<Operator>();
  ASSIGN_OR_RETURN(std::vector<Operator> found, operators(name));
  if (found.empty()) return std::optional<Operator>();
  return std::optional<Operator>(std::move(found[0]));
}

}  // namespace edihub::store
