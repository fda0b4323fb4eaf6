#include "topics/outbox_relay.h"

#include <fmt/ranges.h>
#include <soci/soci.h>
#include <spdlog/spdlog.h>

#include <future>
#include <vector>

namespace smsgw::topics {
namespace {

// Arbitrary constant naming "the outbox pass" among advisory locks.
constexpr long long kRelayLock = 727274002;

struct OutboxRow {
  long long id;
  std::string topic;
  std::string key;
  std::string payload;
};

}  // namespace

OutboxRelay::OutboxRelay(db::Database& db, Producer& producer, OutboxRelayConfig config)
    : db_(db), producer_(producer), config_(config) {}

OutboxRelay::~OutboxRelay() {
  stop();
}

void OutboxRelay::start() {
  std::lock_guard lock(mutex_);
  if (running_) return;
  running_ = true;
  thread_ = std::thread([this] { loop(); });
}

void OutboxRelay::stop() {
  {
    std::lock_guard lock(mutex_);
    if (!running_) return;
    running_ = false;
  }
  wake_.notify_all();
  thread_.join();
}

void OutboxRelay::notify() {
  {
    std::lock_guard lock(mutex_);
    pending_ = true;
  }
  wake_.notify_all();
}

void OutboxRelay::loop() {
  while (true) {
    {
      std::unique_lock lock(mutex_);
      wake_.wait_for(lock, config_.sweep_interval, [this] { return pending_ || !running_; });
      if (!running_) return;
      pending_ = false;
    }
    try {
      while (publishPending() == config_.batch_size) {
      }
    } catch (const std::exception& e) {
      spdlog::warn("outbox pass failed, retrying on the next sweep: {}", e.what());
    }
  }
}

int OutboxRelay::publishPending() {
  db::Session sql(db_);
  soci::transaction tx(*sql);
  int locked = 0;
  *sql << "SELECT pg_try_advisory_xact_lock(:lock)::int", soci::use(kRelayLock), soci::into(locked);
  if (!locked) return 0;

  std::vector<OutboxRow> rows;
  soci::rowset<soci::row> result =
      (sql->prepare << "SELECT id, topic, record_key, payload FROM outbox "
                       "WHERE published_at IS NULL ORDER BY id LIMIT :limit",
       soci::use(config_.batch_size));
  for (const auto& row : result) {
    rows.push_back({row.get<long long>(0), row.get<std::string>(1), row.get<std::string>(2),
                    row.get<std::string>(3)});
  }
  if (rows.empty()) return 0;

  std::vector<std::future<void>> acks;
  acks.reserve(rows.size());
  for (const auto& row : rows) acks.push_back(producer_.produce(row.topic, row.key, row.payload));
  std::vector<long long> published;
  for (size_t i = 0; i < rows.size(); ++i) {
    try {
      acks[i].get();
      published.push_back(rows[i].id);
    } catch (const std::exception& e) {
      spdlog::warn("outbox row {} not published yet: {}", rows[i].id, e.what());
    }
  }
  if (!published.empty()) {
    std::string ids = fmt::format("{{{}}}", fmt::join(published, ","));
    *sql << "UPDATE outbox SET published_at = now() WHERE id = ANY(:ids::bigint[])", soci::use(ids);
  }
  tx.commit();
  return static_cast<int>(published.size());
}

}  // namespace smsgw::topics
