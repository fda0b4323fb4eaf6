#pragma once
// OAuth clients: public clients only (no secret; PKCE proves the code's requester). A client
// either registers (RFC 7591: a dcr_ id) or is known by the URL of its metadata document,
// fetched through the SSRF guard (adapters/client_metadata.h) and kept as long as its cache
// headers allow.

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "adapters/client_metadata.h"
#include "db/database.h"
#include "domain/clock.h"

namespace smsgw::oauth {

struct Client {
  std::string id;
  std::string name;
  std::vector<std::string> redirect_uris;
  // Registered (dcr_): its name is only what it says of itself, and the consent page says so.
  // A metadata document's client is at least known by the address that serves it.
  bool self_registered = false;
};

// RFC 7591 3.2.1's answer for a registration from `address`. Throws ApiError
// OAUTH_INVALID_REDIRECT_URI or OAUTH_INVALID_CLIENT_METADATA (details name the field).
nlohmann::json registerClient(db::Database& db, const nlohmann::json& metadata,
                              const std::string& address, TimePoint now);

// The client `client_id` names. Throws ApiError OAUTH_INVALID_CLIENT (details.reason: unknown,
// or metadata_document_unusable; why a document could not be used is logged, not answered).
Client findClient(db::Database& db, ClientMetadataFetcher& documents, const std::string& client_id,
                  bool allow_loopback, TimePoint now);

}  // namespace smsgw::oauth
