#pragma once
// Route tables, one function per family; main.cpp calls them all.

#include "api/app.h"
#include "api/http/router.h"

namespace smsgw::api {

void addHealthRoutes(Router& router, App& app);
void addAccountRoutes(Router& router, App& app);
void addOwnerPhoneRoutes(Router& router, App& app);
void addTopUpRoutes(Router& router, App& app);
void addApiKeyRoutes(Router& router, App& app);
void addDashboardSessionRoutes(Router& router, App& app);
void addAccountSecurityRoutes(Router& router, App& app);
void addDashboardFileRoutes(Router& router, App& app);
void addPricingRoutes(Router& router, App& app);
void addWebhookRoutes(Router& router, App& app);
void addWebhookDeadLetterRoutes(Router& router, App& app);
void addMessageRoutes(Router& router, App& app);
void addCarrierCallbackRoutes(Router& router, App& app);
void addNumberSearchRoutes(Router& router, App& app);
void addPhoneNumberRoutes(Router& router, App& app);
void addAllowanceRequestRoutes(Router& router, App& app);
void addConsentRoutes(Router& router, App& app);
void addOptOutRoutes(Router& router, App& app);
void addConsentBatchRoutes(Router& router, App& app);
void addOptInConfirmationRoutes(Router& router, App& app);
void addErasureRoutes(Router& router, App& app);
void addContactRoutes(Router& router, App& app);
void addContactGroupRoutes(Router& router, App& app);
void addContactGroupBroadcastRoutes(Router& router, App& app);
void addContactListRoutes(Router& router, App& app);
void addEmailRoutes(Router& router, App& app);
void addVerificationRoutes(Router& router, App& app);
void addOAuthRoutes(Router& router, App& app);
void addConnectedAppRoutes(Router& router, App& app);
void addOAuthAuthorizeRoutes(Router& router, App& app);
// Last: the MCP tools call the routes added before it.
void addMcpRoutes(Router& router, App& app);

inline Router buildRouter(App& app) {
  Router router;
  addHealthRoutes(router, app);
  addAccountRoutes(router, app);
  addOwnerPhoneRoutes(router, app);
  addTopUpRoutes(router, app);
  addApiKeyRoutes(router, app);
  addDashboardSessionRoutes(router, app);
  addAccountSecurityRoutes(router, app);
  addDashboardFileRoutes(router, app);
  addPricingRoutes(router, app);
  addWebhookRoutes(router, app);
  addWebhookDeadLetterRoutes(router, app);
  addMessageRoutes(router, app);
  addCarrierCallbackRoutes(router, app);
  addNumberSearchRoutes(router, app);
  addPhoneNumberRoutes(router, app);
  addAllowanceRequestRoutes(router, app);
  addConsentRoutes(router, app);
  addOptOutRoutes(router, app);
  addConsentBatchRoutes(router, app);
  addOptInConfirmationRoutes(router, app);
  addErasureRoutes(router, app);
  addContactRoutes(router, app);
  addContactGroupRoutes(router, app);
  addContactGroupBroadcastRoutes(router, app);
  addContactListRoutes(router, app);
  addEmailRoutes(router, app);
  addVerificationRoutes(router, app);
  addOAuthRoutes(router, app);
  addConnectedAppRoutes(router, app);
  addOAuthAuthorizeRoutes(router, app);
  addMcpRoutes(router, app);
  return router;
}

}  // namespace smsgw::api
