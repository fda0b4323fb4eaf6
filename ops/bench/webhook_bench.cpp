// smsgw-webhook-bench: drives the running webhook dispatcher through the real path (event row
// and outbox record → relay → Kafka → dispatcher → HTTP) and prints:
//   - deliveries per second to a local receiver, with the time from event to arrival;
//   - that time for a steady stream of other accounts' events, first alone, then while one
//     endpoint hangs past the timeout with a backlog of its own events.
// Run by ops/bench/webhook-bench, which starts the bench stack. DATABASE_URL names its database.
#include <soci/soci.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <thread>

#include "adapters/env.h"
#include "db/database.h"
#include "domain/clock.h"
#include "domain/ids.h"
#include "domain/webhook_signature.h"
#include "tests/support/webhook_receiver.h"
#include "topics/event_writer.h"

using namespace smsgw;
using namespace std::chrono;
using smsgw::testing::ReceivedRequest;
using smsgw::testing::ReceiverAnswer;
using smsgw::testing::WebhookReceiver;

namespace {

std::string newAccountWithEndpoint(db::Database& db, const std::string& url) {
  std::string account = newId("acc_whb"), webhook = newId("wh"), secret = newWebhookSecret();
  std::string email = account + "@bench.example";
  db::Session sql(db);
  *sql << "INSERT INTO accounts (id, name, email, password_hash, status) VALUES (:id, 'bench', "
          ":e, 'x', 'ACTIVE')",
      soci::use(account), soci::use(email);
  *sql << "INSERT INTO webhooks (id, account_id, url, events, signing_secret) VALUES (:id, :a, "
          ":u, '[\"message.sent\"]', :s)",
      soci::use(webhook), soci::use(account), soci::use(url), soci::use(secret);
  return account;
}

void raise(db::Database& db, const std::vector<std::string>& accounts, size_t count) {
  db::Session sql(db);
  soci::transaction tx(*sql);
  for (size_t i = 0; i < count; ++i)
    topics::raiseEvent(*sql, {accounts[i % accounts.size()],
                              "message.sent",
                              true,
                              {{"message_id", newId("msg")}, {"status", "sent"}}});
  tx.commit();
}

// Milliseconds from each event's `created` to its arrival, sorted.
std::vector<double> latencies(const std::vector<ReceivedRequest>& requests, size_t from) {
  std::vector<double> out;
  for (size_t i = from; i < requests.size(); ++i) {
    auto created = parseIso(nlohmann::json::parse(requests[i].body)["created"].get<std::string>());
    out.push_back(duration<double, std::milli>(requests[i].received_at - *created).count());
  }
  std::sort(out.begin(), out.end());
  return out;
}

// CPU seconds so far of every process, by name (children that ended included): /proc/PID/stat
// fields 14 to 17, after the name in parentheses. This process counts as "bench" (it raises the
// events and runs the receiver).
std::map<std::string, double> cpuByName() {
  std::map<std::string, double> out;
  const double ticks = static_cast<double>(sysconf(_SC_CLK_TCK));
  const std::string self = std::to_string(getpid());
  for (const auto& entry : std::filesystem::directory_iterator("/proc")) {
    std::string pid = entry.path().filename();
    if (pid.find_first_not_of("0123456789") != std::string::npos) continue;
    std::ifstream file(entry.path() / "stat");
    std::string line;
    if (!std::getline(file, line)) continue;
    auto open = line.find('('), close = line.rfind(')');
    if (open == std::string::npos || close == std::string::npos) continue;
    std::istringstream rest(line.substr(close + 2));
    std::string field;
    double sum = 0;
    for (int i = 3; i <= 17 && rest >> field; ++i)
      if (i >= 14) sum += std::stod(field);
    out[pid == self ? "bench" : line.substr(open + 1, close - open - 1)] += sum / ticks;
  }
  return out;
}

// Milliseconds of CPU per delivery of each process that did work between two snapshots.
void printCpuPerDelivery(const std::map<std::string, double>& before,
                         const std::map<std::string, double>& after, size_t deliveries) {
  std::printf("burst CPU per delivery (ms):");
  double ours = 0;
  for (const auto& [name, seconds] : after) {
    auto was = before.find(name);
    double ms = (seconds - (was == before.end() ? 0 : was->second)) * 1000 /
                static_cast<double>(deliveries);
    if (ms < 0.005) continue;
    std::printf(" %s %.3f,", name.c_str(), ms);
    if (name == "postgres" || name.rfind("smsgw-", 0) == 0) ours += ms;
  }
  std::printf(" our processes and PostgreSQL %.2f\n", ours);
}

double percentile(const std::vector<double>& sorted, double p) {
  if (sorted.empty()) return 0;
  return sorted[std::min(sorted.size() - 1,
                         static_cast<size_t>(p * static_cast<double>(sorted.size())))];
}

// Events for `accounts` at `rate` a second for `seconds`; prints their latency.
void steadyStream(db::Database& db, WebhookReceiver& receiver,
                  const std::vector<std::string>& accounts, int rate, int run_seconds,
                  const char* label) {
  size_t before = receiver.received();
  size_t total = static_cast<size_t>(rate) * static_cast<size_t>(run_seconds);
  auto start = steady_clock::now();
  for (size_t i = 0; i < total; ++i) {
    std::this_thread::sleep_until(start + microseconds(1'000'000 * i / rate));
    raise(db, {accounts[i % accounts.size()]}, 1);
  }
  auto got = receiver.waitFor(before + total, std::chrono::seconds(60));
  auto sorted = latencies(got, before);
  std::printf("%s: %zu of %zu delivered; event to arrival p50 %.0f ms, p99 %.0f ms, max %.0f ms\n",
              label, got.size() - before, total, percentile(sorted, 0.5), percentile(sorted, 0.99),
              sorted.empty() ? 0 : sorted.back());
}

}  // namespace

int main(int argc, char** argv) {
  int events = argc > 1 ? std::atoi(argv[1]) : 3000;
  int rate = argc > 2 ? std::atoi(argv[2]) : 50;
  int stream_seconds = argc > 3 ? std::atoi(argv[3]) : 20;
  db::Database db(env::databaseUrl(), 2);
  WebhookReceiver fast, hanging;
  hanging.answerWith(ReceiverAnswer::Hang);

  std::vector<std::string> accounts;
  accounts.reserve(20);
  for (int i = 0; i < 20; ++i) accounts.push_back(newAccountWithEndpoint(db, fast.url()));

  // 1. Throughput: a burst of events over 20 accounts, as fast as the pipeline goes.
  auto cpu_before = cpuByName();
  auto start = system_clock::now();
  for (int sent = 0; sent < events; sent += 100)
    raise(db, accounts, static_cast<size_t>(std::min(100, events - sent)));
  auto got = fast.waitFor(static_cast<size_t>(events), std::chrono::seconds(300));
  auto cpu_after = cpuByName();
  auto last = std::max_element(got.begin(), got.end(), [](const auto& a, const auto& b) {
                return a.received_at < b.received_at;
              })->received_at;
  double elapsed = duration<double>(last - start).count();
  auto sorted = latencies(got, 0);
  std::printf(
      "burst: %zu of %d events delivered in %.1f s: %.0f deliveries/s; event to arrival "
      "p50 %.0f ms, p99 %.0f ms\n",
      got.size(), events, elapsed, static_cast<double>(got.size()) / elapsed,
      percentile(sorted, 0.5), percentile(sorted, 0.99));
  printCpuPerDelivery(cpu_before, cpu_after, got.size());

  // 2. Other accounts' latency, alone and while one endpoint hangs with a backlog.
  steadyStream(db, fast, accounts, rate, stream_seconds, "steady stream, no hanging endpoint");
  std::string stuck = newAccountWithEndpoint(db, hanging.url());
  raise(db, {stuck}, 200);
  hanging.waitFor(1, std::chrono::seconds(30));
  steadyStream(db, fast, accounts, rate, stream_seconds, "steady stream, one endpoint hanging");
  std::printf(
      "hanging endpoint: %zu attempts reached it during the run (at most 4 at a time, "
      "each held until the dispatcher's timeout)\n",
      hanging.received());
  return 0;
}
