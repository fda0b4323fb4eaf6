// The dashboard's files (dashboard/, built by ops/up into dashboard/dist), served at /dashboard
// on the API's own origin, so the page reaches the API without CORS and its session cookies
// stay SameSite=Strict. Read once at start-up: the page works the same however the folder
// changes while the API runs. The page's own code is the only code it runs: a strict CSP with
// no inline script, never framed, never sniffed.
#include <spdlog/spdlog.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "api/routes/routes.h"

namespace smsgw::api {
namespace {

constexpr const char* kPolicy =
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; font-src 'self'; manifest-src 'self'; base-uri 'none'; "
    "form-action 'self'; frame-ancestors 'none'";

std::string contentTypeOf(const std::filesystem::path& file) {
  static const std::map<std::string, std::string> kTypes = {
      {".html", "text/html; charset=utf-8"},
      {".js", "text/javascript; charset=utf-8"},
      {".css", "text/css; charset=utf-8"},
      {".svg", "image/svg+xml"},
      {".png", "image/png"},
      {".ico", "image/x-icon"},
      {".json", "application/json"},
      {".woff2", "font/woff2"},
      {".txt", "text/plain; charset=utf-8"}};
  auto it = kTypes.find(file.extension().string());
  return it == kTypes.end() ? "application/octet-stream" : it->second;
}

ApiResponse fileAnswer(const std::string& bytes, const std::string& content_type,
                       bool fingerprinted) {
  ApiResponse response{200, nullptr, true, {}, bytes, content_type};
  response.headers.emplace_back("Content-Security-Policy", kPolicy);
  response.headers.emplace_back("X-Frame-Options", "DENY");
  response.headers.emplace_back("X-Content-Type-Options", "nosniff");
  response.headers.emplace_back("Referrer-Policy", "no-referrer");
  response.headers.emplace_back("Cross-Origin-Opener-Policy", "same-origin");
  // Vite names every asset by its content's hash; the page itself must be asked for each time.
  response.headers.emplace_back("Cache-Control",
                                fingerprinted ? "public, max-age=31536000, immutable" : "no-cache");
  return response;
}

std::string readAll(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  std::ostringstream bytes;
  bytes << in.rdbuf();
  return bytes.str();
}

}  // namespace

void addDashboardFileRoutes(Router& router, App& app) {
  namespace fs = std::filesystem;
  RouteOptions open;
  open.authenticated = false;
  const fs::path root = app.config.dashboard_dir;
  std::error_code error;
  if (root.empty() || !fs::is_regular_file(root / "index.html", error)) {
    spdlog::warn("no dashboard at '{}' (DASHBOARD_DIR): /dashboard answers 404", root.string());
    return;
  }
  auto index = std::make_shared<std::string>(readAll(root / "index.html"));
  // The router reads /dashboard and /dashboard/ alike; the page's asset paths are absolute.
  router.add("GET", "/dashboard", open, [index](ApiRequest&) {
    return fileAnswer(*index, "text/html; charset=utf-8", false);
  });
  for (const auto& entry : fs::recursive_directory_iterator(root)) {
    if (!entry.is_regular_file()) continue;
    std::string relative = fs::relative(entry.path(), root).generic_string();
    auto bytes = std::make_shared<std::string>(readAll(entry.path()));
    std::string type = contentTypeOf(entry.path());
    bool fingerprinted = relative.starts_with("assets/");
    router.add("GET", "/dashboard/" + relative, open, [bytes, type, fingerprinted](ApiRequest&) {
      return fileAnswer(*bytes, type, fingerprinted);
    });
  }
}

}  // namespace smsgw::api
