#include "tests/support/balancer.h"

#include <curl/curl.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <thread>

#include "domain/ids.h"

namespace smsgw::testing {
namespace {

// A certificate for localhost and 127.0.0.1 with its key, as HAProxy reads it (one PEM file),
// made by the openssl command line the machine has.
void makeCertificate(const std::filesystem::path& dir) {
  std::string command =
      "openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 2 "
      "-subj /CN=localhost -addext subjectAltName=DNS:localhost,IP:127.0.0.1 -keyout '" +
      (dir / "key.pem").string() + "' -out '" + (dir / "cert.pem").string() +
      "' 2>/dev/null && cat '" + (dir / "cert.pem").string() + "' '" + (dir / "key.pem").string() +
      "' > '" + (dir / "chain-and-key.pem").string() + "'";
  if (std::system(command.c_str()) != 0)  // NOLINT(cert-env33-c): a test's own fixed command
    throw std::runtime_error("openssl could not make the balancer's certificate");
}

size_t ignoreBody(char*, size_t size, size_t count, void*) {
  return size * count;
}

// Whether GET /health answers 200 through the balancer now.
bool answers(const std::string& url, const std::string& certificate) {
  CURL* curl = curl_easy_init();
  curl_easy_setopt(curl, CURLOPT_URL, (url + "/health").c_str());
  curl_easy_setopt(curl, CURLOPT_CAINFO, certificate.c_str());
  curl_easy_setopt(curl, CURLOPT_TIMEOUT_MS, 2000L);
  curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, ignoreBody);
  long status = 0;
  if (curl_easy_perform(curl) == CURLE_OK) curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &status);
  curl_easy_cleanup(curl);
  return status == 200;
}

}  // namespace

Balancer::Balancer(Instance first, Instance second) : port_(freeLoopbackPort()) {
  std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("balancer-" + randomBase62(8));
  std::filesystem::create_directories(dir);
  dir_ = dir.string();
  makeCertificate(dir);
  certificate_ = (dir / "cert.pem").string();
  log_ = (dir / "haproxy.log").string();
  auto address = [](int port) { return "127.0.0.1:" + std::to_string(port); };
  haproxy_ = std::make_unique<ChildProcess>(
      "/usr/sbin/haproxy", std::vector<std::string>{"-db", "-f", SMSGW_HAPROXY_CONFIG},
      std::map<std::string, std::string>{{"LB_BIND", "127.0.0.1:" + std::to_string(port_)},
                                         {"LB_CERT", (dir / "chain-and-key.pem").string()},
                                         {"LB_SOURCE", kBalancerSource},
                                         {"API_1", address(first.port)},
                                         {"API_1_OPS", std::to_string(first.ops_port)},
                                         {"API_2", address(second.port)},
                                         {"API_2_OPS", std::to_string(second.ops_port)}},
      log_);
}

Balancer::~Balancer() {
  haproxy_->terminate();
  std::error_code ignored;
  std::filesystem::remove_all(dir_, ignored);
}

bool Balancer::start() {
  haproxy_->start();
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (std::chrono::steady_clock::now() < deadline) {
    if (answers(url(), certificate_)) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
  }
  return false;
}

std::string Balancer::url() const {
  return "https://localhost:" + std::to_string(port_);
}

}  // namespace smsgw::testing
