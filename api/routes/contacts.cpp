// Contacts: create, list (search, limit, offset), read, change and delete
// (services/contacts/contacts.h). The fields are checked here: phone_number E.164, email an
// address (stored lower-cased), name and notes text; in a PATCH, null clears a field.
#include "services/contacts/contacts.h"

#include "api/routes/address_book_fields.h"
#include "api/routes/routes.h"
#include "api/routes/validate.h"
#include "domain/errors.h"

namespace smsgw::api {
namespace {

contacts::ContactFields readFields(const nlohmann::json& body) {
  requireOnlyFields(body, {"phone_number", "email", "name", "notes"});
  contacts::ContactFields fields{
      fieldChange(body, "phone_number", 20), fieldChange(body, "email", 254),
      fieldChange(body, "name", kMaxNameLength), fieldChange(body, "notes", kMaxDescriptionLength)};
  if (fields.phone_number && *fields.phone_number)
    fields.phone_number = requirePhone(**fields.phone_number, "phone_number").str();
  if (fields.name && *fields.name) requireReadableName(**fields.name, "name");
  if (fields.email && *fields.email && !isEmailAddress(**fields.email))
    throw validationError("email", "must be an email address");
  return fields;
}

ApiResponse create(App& app, ApiRequest& req) {
  auto fields = readFields(requireObjectBody(req));
  return ApiResponse::json(201,
                           contacts::createContact(app.db, req.who(), fields, app.clock.now()));
}

ApiResponse list(App& app, ApiRequest& req) {
  OffsetPage page = offsetPage(req);
  return ApiResponse::json(
      200, contacts::contactPage(app.db, req.who(), page.search, page.limit, page.offset));
}

ApiResponse get(App& app, ApiRequest& req) {
  return ApiResponse::json(200, contacts::contact(app.db, req.who(), req.params.at("id")));
}

ApiResponse patch(App& app, ApiRequest& req) {
  auto fields = readFields(requireObjectBody(req));
  return ApiResponse::json(200, contacts::changeContact(app.db, req.who(), req.params.at("id"),
                                                        fields, app.clock.now()));
}

ApiResponse remove(App& app, ApiRequest& req) {
  contacts::deleteContact(app.db, req.who(), req.params.at("id"));
  return ApiResponse::noContent();
}

}  // namespace

void addContactRoutes(Router& router, App& app) {
  router.add("POST", "/v1/contacts", needs("contacts:w"),
             [&app](ApiRequest& r) { return create(app, r); });
  router.add("GET", "/v1/contacts", needs("contacts:r"),
             [&app](ApiRequest& r) { return list(app, r); });
  router.add("GET", "/v1/contacts/{id}", needs("contacts:r"),
             [&app](ApiRequest& r) { return get(app, r); });
  router.add("PATCH", "/v1/contacts/{id}", needs("contacts:m"),
             [&app](ApiRequest& r) { return patch(app, r); });
  router.add("DELETE", "/v1/contacts/{id}", needs("contacts:d"),
             [&app](ApiRequest& r) { return remove(app, r); });
}

}  // namespace smsgw::api
