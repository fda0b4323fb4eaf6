// Allow/deny contact lists and their entries (services/contacts/lists.h). An entry names
// exactly one of `phone_number` (E.164), `contact_id` and `contact_group_id`, else 422
// CONTACT_LIST_ENTRY_INVALID.
#include "api/routes/address_book_fields.h"
#include "api/routes/routes.h"
#include "api/routes/validate.h"
#include "domain/errors.h"
#include "services/contacts/lists.h"

namespace smsgw::api {
namespace {

contacts::NewEntry readEntry(const nlohmann::json& body) {
  requireOnlyFields(body, {"phone_number", "contact_id", "contact_group_id"});
  int given = 0;
  for (const char* field : {"phone_number", "contact_id", "contact_group_id"}) {
    if (!body.contains(field) || body[field].is_null()) continue;
    if (!body[field].is_string() || body[field].get_ref<const std::string&>().empty())
      throw ApiError(ErrorCode::CONTACT_LIST_ENTRY_INVALID, {{"field", field}});
    ++given;
  }
  if (given != 1) throw ApiError(ErrorCode::CONTACT_LIST_ENTRY_INVALID);
  contacts::NewEntry entry{optionalString(body, "phone_number", 20),
                           optionalString(body, "contact_id", 100),
                           optionalString(body, "contact_group_id", 100)};
  if (entry.phone_number)
    entry.phone_number = requirePhone(*entry.phone_number, "phone_number").str();
  return entry;
}

ApiResponse create(App& app, ApiRequest& req) {
  auto fields = namedFields(requireObjectBody(req), true);
  return ApiResponse::json(201, contacts::createList(app.db, req.who(), fields, app.clock.now()));
}

ApiResponse list(App& app, ApiRequest& req) {
  OffsetPage page = offsetPage(req);
  return ApiResponse::json(
      200, contacts::listPage(app.db, req.who(), page.search, page.limit, page.offset));
}

ApiResponse get(App& app, ApiRequest& req) {
  return ApiResponse::json(200, contacts::contactList(app.db, req.who(), req.params.at("id")));
}

ApiResponse patch(App& app, ApiRequest& req) {
  auto fields = namedFields(requireObjectBody(req), false);
  return ApiResponse::json(
      200, contacts::changeList(app.db, req.who(), req.params.at("id"), fields, app.clock.now()));
}

ApiResponse remove(App& app, ApiRequest& req) {
  contacts::deleteList(app.db, req.who(), req.params.at("id"));
  return ApiResponse::noContent();
}

ApiResponse addEntry(App& app, ApiRequest& req) {
  auto entry = readEntry(requireObjectBody(req));
  return ApiResponse::json(
      201, contacts::addEntry(app.db, req.who(), req.params.at("id"), entry, app.clock.now()));
}

ApiResponse removeEntry(App& app, ApiRequest& req) {
  contacts::removeEntry(app.db, req.who(), req.params.at("id"), req.params.at("entryId"),
                        app.clock.now());
  return ApiResponse::noContent();
}

}  // namespace

void addContactListRoutes(Router& router, App& app) {
  router.add("GET", "/v1/contact-lists", needs("contact_lists:r"),
             [&app](ApiRequest& r) { return list(app, r); });
  router.add("POST", "/v1/contact-lists", needs("contact_lists:w"),
             [&app](ApiRequest& r) { return create(app, r); });
  router.add("GET", "/v1/contact-lists/{id}", needs("contact_lists:r"),
             [&app](ApiRequest& r) { return get(app, r); });
  router.add("PATCH", "/v1/contact-lists/{id}", needs("contact_lists:m"),
             [&app](ApiRequest& r) { return patch(app, r); });
  router.add("DELETE", "/v1/contact-lists/{id}", needs("contact_lists:d"),
             [&app](ApiRequest& r) { return remove(app, r); });
  router.add("POST", "/v1/contact-lists/{id}/entries", needs("contact_lists:m"),
             [&app](ApiRequest& r) { return addEntry(app, r); });
  router.add("DELETE", "/v1/contact-lists/{id}/entries/{entryId}", needs("contact_lists:m"),
             [&app](ApiRequest& r) { return removeEntry(app, r); });
}

}  // namespace smsgw::api
