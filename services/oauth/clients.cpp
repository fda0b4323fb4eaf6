#include "services/oauth/clients.h"

#include <soci/soci.h>
#include <spdlog/spdlog.h>

#include "adapters/client_metadata.h"
#include "adapters/oauth_redirect.h"
#include "domain/display_name.h"
#include "domain/errors.h"
#include "domain/ids.h"

namespace smsgw::oauth {
namespace {

constexpr size_t kMaxRedirectUris = 10;
constexpr size_t kMaxNameLength = 100;

ApiError badMetadata(const char* field, const char* problem) {
  return ApiError(ErrorCode::OAUTH_INVALID_CLIENT_METADATA,
                  {{"field", field}, {"problem", problem}});
}

std::vector<std::string> redirectUrisOf(const nlohmann::json& metadata) {
  auto it = metadata.find("redirect_uris");
  if (it == metadata.end() || !it->is_array() || it->empty() || it->size() > kMaxRedirectUris)
    throw ApiError(ErrorCode::OAUTH_INVALID_REDIRECT_URI,
                   {{"field", "redirect_uris"}, {"problem", "must list 1 to 10 URIs"}});
  std::vector<std::string> uris;
  for (const auto& uri : *it) {
    if (!uri.is_string() || uri.get_ref<const std::string&>().size() > 2000 ||
        checkRedirectUri(uri.get<std::string>()) != RedirectVerdict::Allowed)
      throw ApiError(ErrorCode::OAUTH_INVALID_REDIRECT_URI,
                     {{"field", "redirect_uris"}, {"uri", uri}});
    uris.push_back(uri);
  }
  return uris;
}

// A name the consent page can show; absent: the first redirect URI stands in for it. The owner
// reads it as who is asking, so it must read as written (no bidi overrides, zero-width or
// control characters) and must not pass for us.
std::string nameOf(const nlohmann::json& metadata, const std::vector<std::string>& uris) {
  auto it = metadata.find("client_name");
  if (it == metadata.end()) return uris.front();
  if (!it->is_string() || it->get_ref<const std::string&>().empty() ||
      it->get_ref<const std::string&>().size() > kMaxNameLength)
    throw badMetadata("client_name", "must be text of 1 to 100 characters");
  switch (displayNameProblem(it->get_ref<const std::string&>())) {
    case DisplayNameProblem::None:
      return *it;
    case DisplayNameProblem::NotText:
      throw badMetadata("client_name", "must be text");
    case DisplayNameProblem::HiddenCharacter:
      throw badMetadata("client_name",
                        "must not hold control, format (bidi, zero-width) or separator characters");
    case DisplayNameProblem::ClaimsToBeUs:
      throw badMetadata("client_name", "must not read as this service's name or as official");
  }
  return *it;
}

// A metadata document that cannot be used: the client is told no more than that, since what
// went wrong (refused, reset, too large, a field's value) would tell a stranger what answers
// at an internal address, or echo whatever the document held. The log has the detail.
ApiError unusableDocument(const std::string& url, const std::string& detail) {
  spdlog::info("client metadata document {} unusable: {}", url, detail);
  return ApiError(ErrorCode::OAUTH_INVALID_CLIENT, {{"reason", "metadata_document_unusable"}});
}

// Public clients only, with the code grant (and its refresh): anything else is refused rather
// than silently ignored, so a client never believes it got what it asked for.
void requirePublicCodeClient(const nlohmann::json& metadata) {
  if (metadata.contains("token_endpoint_auth_method") &&
      metadata["token_endpoint_auth_method"] != "none")
    throw badMetadata("token_endpoint_auth_method", "only none (public clients) is supported");
  for (const auto& [field, allowed] :
       {std::pair{"grant_types", std::vector<std::string>{"authorization_code", "refresh_token"}},
        std::pair{"response_types", std::vector<std::string>{"code"}}}) {
    if (!metadata.contains(field)) continue;
    if (!metadata[field].is_array()) throw badMetadata(field, "must be an array");
    for (const auto& value : metadata[field]) {
      if (!value.is_string() ||
          std::find(allowed.begin(), allowed.end(), value.get<std::string>()) == allowed.end())
        throw badMetadata(field, "unsupported value");
    }
  }
}

std::optional<Client> storedClient(soci::session& sql, const std::string& id, TimePoint now,
                                   bool fresh_only) {
  Client client;
  std::string uris, at = formatIso(now), kind;
  int fresh = 0;
  sql << "SELECT client_name, redirect_uris::text, kind, "
         "(fresh_until IS NULL OR fresh_until > :now::timestamptz)::int "
         "FROM oauth_clients WHERE id = :id",
      soci::use(at), soci::use(id), soci::into(client.name), soci::into(uris), soci::into(kind),
      soci::into(fresh);
  if (!sql.got_data() || (fresh_only && !fresh)) return std::nullopt;
  client.id = id;
  client.self_registered = kind == "REGISTERED";
  client.redirect_uris = nlohmann::json::parse(uris).get<std::vector<std::string>>();
  return client;
}

Client clientFromDocument(db::Database& db, ClientMetadataFetcher& documents,
                          const std::string& url, bool allow_loopback, TimePoint now) {
  FetchedClientMetadata fetched = documents.fetch(url, allow_loopback, now);
  if (fetched.outcome != FetchedClientMetadata::Outcome::Fetched)
    throw unusableDocument(url, fetched.reason);
  const nlohmann::json& document = fetched.document;
  // The document must name itself: a URL serving another client's document is not that client.
  if (document.value("client_id", nlohmann::json()) != url)
    throw unusableDocument(url, "its client_id is not the URL it was fetched from");
  Client client;
  try {
    requirePublicCodeClient(document);
    client = {url, "", redirectUrisOf(document)};
    client.name = nameOf(document, client.redirect_uris);
  } catch (const ApiError& e) {
    throw unusableDocument(
        url, e.details().dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
  }
  std::string uris = nlohmann::json(client.redirect_uris).dump(), at = formatIso(now);
  long long fresh_seconds = fetched.fresh_for.count();
  db::Session sql(db);
  *sql << "INSERT INTO oauth_clients (id, kind, client_name, redirect_uris, fresh_until) "
          "VALUES (:id, 'METADATA_DOCUMENT', :name, :uris::jsonb, "
          ":now::timestamptz + make_interval(secs => :fresh)) "
          "ON CONFLICT (id) DO UPDATE SET client_name = excluded.client_name, "
          "redirect_uris = excluded.redirect_uris, fresh_until = excluded.fresh_until",
      soci::use(client.id), soci::use(client.name), soci::use(uris), soci::use(at),
      soci::use(fresh_seconds);
  return client;
}

}  // namespace

nlohmann::json registerClient(db::Database& db, const nlohmann::json& metadata,
                              const std::string& address, TimePoint now) {
  if (!metadata.is_object()) throw badMetadata("body", "must be a JSON object");
  std::vector<std::string> uris = redirectUrisOf(metadata);
  std::string name = nameOf(metadata, uris);
  requirePublicCodeClient(metadata);
  std::string id = newId("dcr"), uris_text = nlohmann::json(uris).dump(), at = formatIso(now);
  db::Session sql(db);
  *sql << "INSERT INTO oauth_clients (id, kind, client_name, redirect_uris, registered_by, "
          "created_at) VALUES (:id, 'REGISTERED', :name, :uris::jsonb, :address, "
          ":now::timestamptz)",
      soci::use(id), soci::use(name), soci::use(uris_text), soci::use(address), soci::use(at);
  return {{"client_id", id},
          {"client_id_issued_at", unixSeconds(now)},
          {"client_name", name},
          {"redirect_uris", uris},
          {"grant_types", {"authorization_code", "refresh_token"}},
          {"response_types", {"code"}},
          {"token_endpoint_auth_method", "none"}};
}

Client findClient(db::Database& db, ClientMetadataFetcher& documents, const std::string& client_id,
                  bool allow_loopback, TimePoint now) {
  bool registered = client_id.starts_with("dcr_");
  bool document = client_id.starts_with("https://") || client_id.starts_with("http://");
  if (!registered && !document)
    throw ApiError(ErrorCode::OAUTH_INVALID_CLIENT, {{"reason", "unknown"}});
  {
    db::Session sql(db);
    if (auto stored = storedClient(*sql, client_id, now, document)) return *stored;
  }
  if (registered) throw ApiError(ErrorCode::OAUTH_INVALID_CLIENT, {{"reason", "unknown"}});
  return clientFromDocument(db, documents, client_id, allow_loopback, now);
}

}  // namespace smsgw::oauth
