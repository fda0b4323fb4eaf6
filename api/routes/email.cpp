// The email product is not offered yet (spec: `features.email` is false): its routes exist and
// answer 501 EMAIL_COMING_SOON, after authentication and the `email` permission, so a client
// learns why rather than meeting a 404.
#include "api/routes/routes.h"
#include "domain/errors.h"

namespace smsgw::api {
namespace {

ApiResponse comingSoon(ApiRequest&) {
  throw ApiError(ErrorCode::EMAIL_COMING_SOON);
}

}  // namespace

void addEmailRoutes(Router& router, App&) {
  router.add("GET", "/v1/email-domains", needs("email:r"), comingSoon);
  router.add("POST", "/v1/emails", needs("email:w"), comingSoon);
  router.add("POST", "/v1/emails/batch", needs("email:w"), comingSoon);
}

}  // namespace smsgw::api
