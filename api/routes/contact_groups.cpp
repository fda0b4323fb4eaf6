// Contact groups and their members (services/contacts/groups.h). A name is 1–200 characters; a
// member is named by `contact_id` or by `phone_number` (E.164), exactly one.
#include "api/routes/address_book_fields.h"
#include "api/routes/routes.h"
#include "api/routes/validate.h"
#include "domain/errors.h"
#include "services/contacts/groups.h"

namespace smsgw::api {
namespace {

ApiResponse create(App& app, ApiRequest& req) {
  auto fields = namedFields(requireObjectBody(req), true);
  return ApiResponse::json(201, contacts::createGroup(app.db, req.who(), fields, app.clock.now()));
}

ApiResponse list(App& app, ApiRequest& req) {
  OffsetPage page = offsetPage(req);
  return ApiResponse::json(
      200, contacts::groupPage(app.db, req.who(), page.search, page.limit, page.offset));
}

ApiResponse get(App& app, ApiRequest& req) {
  return ApiResponse::json(200, contacts::group(app.db, req.who(), req.params.at("id")));
}

ApiResponse patch(App& app, ApiRequest& req) {
  auto fields = namedFields(requireObjectBody(req), false);
  return ApiResponse::json(
      200, contacts::changeGroup(app.db, req.who(), req.params.at("id"), fields, app.clock.now()));
}

ApiResponse remove(App& app, ApiRequest& req) {
  contacts::deleteGroup(app.db, req.who(), req.params.at("id"));
  return ApiResponse::noContent();
}

ApiResponse addMember(App& app, ApiRequest& req) {
  const auto& body = requireObjectBody(req);
  requireOnlyFields(body, {"contact_id", "phone_number"});
  contacts::NewMember member{optionalString(body, "contact_id", 100),
                             optionalString(body, "phone_number", 20)};
  if (member.contact_id.has_value() == member.phone_number.has_value())
    throw validationError("contact_id", "give exactly one of contact_id and phone_number");
  if (member.phone_number)
    member.phone_number = requirePhone(*member.phone_number, "phone_number").str();
  return ApiResponse::json(
      201, contacts::addMember(app.db, req.who(), req.params.at("id"), member, app.clock.now()));
}

ApiResponse removeMember(App& app, ApiRequest& req) {
  contacts::removeMember(app.db, req.who(), req.params.at("id"), req.params.at("contactId"),
                         app.clock.now());
  return ApiResponse::noContent();
}

}  // namespace

void addContactGroupRoutes(Router& router, App& app) {
  router.add("GET", "/v1/contact-groups", needs("contact_groups:r"),
             [&app](ApiRequest& r) { return list(app, r); });
  router.add("POST", "/v1/contact-groups", needs("contact_groups:w"),
             [&app](ApiRequest& r) { return create(app, r); });
  router.add("GET", "/v1/contact-groups/{id}", needs("contact_groups:r"),
             [&app](ApiRequest& r) { return get(app, r); });
  router.add("PATCH", "/v1/contact-groups/{id}", needs("contact_groups:m"),
             [&app](ApiRequest& r) { return patch(app, r); });
  router.add("DELETE", "/v1/contact-groups/{id}", needs("contact_groups:d"),
             [&app](ApiRequest& r) { return remove(app, r); });
  router.add("POST", "/v1/contact-groups/{id}/members", needs("contact_groups:m"),
             [&app](ApiRequest& r) { return addMember(app, r); });
  router.add("DELETE", "/v1/contact-groups/{id}/members/{contactId}", needs("contact_groups:m"),
             [&app](ApiRequest& r) { return removeMember(app, r); });
}

}  // namespace smsgw::api
