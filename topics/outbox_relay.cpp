#include "topics/outbox_relay.h"

#include <fmt/ranges.h>
#include <soci/postgresql/soci-postgresql.h>
#include <soci/soci.h>
#include <spdlog/spdlog.h>

#include <future>
#include <vector>

#include "adapters/log.h"
#include "db/error_text.h"
#include "db/outbox.h"
#include "db/prepared_statement.h"

namespace smsgw::topics {
namespace {

// Arbitrary constant naming "the outbox pass" among advisory locks.
constexpr long long kRelayLock = 727274002;

// Prepared: the relay polls many times a second, and PostgreSQL planned this read afresh each
// time (0.2 ms a poll, most of the planning in ops/bench/pipeline-cost). The limit is written
// in, not a parameter: with an unknown limit the generic plan looked dearer than the custom
// ones, and PostgreSQL went on planning every poll.
// Only stamps up to the bound: all of those have committed or rolled back, so no row at or
// below where this pass stops can still appear (migration 0030).
// Written so that no statistics can make it slow: the stamps in order along their index, at
// most one more transaction than the batch needs (each has a row, the first perhaps none left
// after the position), and each one's rows by the primary key, in a subquery PostgreSQL may
// not merge into a join (OFFSET 0). Merged, with statistics from an outbox the purge had
// emptied, it was planned as a scan of the whole outbox per transaction: 3.5 s a batch
// (ops/bench/outbox-designs, design (c)).
std::string readPendingText(int limit) {
  return "SELECT c.stamp, o.id, o.topic, o.record_key, o.payload, o.request_id "
         "FROM (SELECT txid, stamp FROM outbox_commits WHERE stamp >= $1::bigint AND "
         "stamp <= $3::bigint ORDER BY stamp LIMIT " +
         std::to_string(limit + 1) +
         ") c CROSS JOIN LATERAL (SELECT id, topic, record_key, payload, request_id FROM outbox "
         "WHERE txid = c.txid AND (c.stamp > $1::bigint OR id > $2::bigint) OFFSET 0) o "
         "ORDER BY c.stamp, o.id LIMIT " +
         std::to_string(limit);
}
const db::PreparedStatement& readHorizon() {
  static const db::PreparedStatement statement(
      "relay_read_horizon",
      "SELECT stamp, running::text, oldest::text FROM outbox_commit_horizon()");
  return statement;
}
const db::PreparedStatement& movePosition() {
  static const db::PreparedStatement statement(
      "relay_move_position",
      "UPDATE outbox_relay_position SET stamp = $1::bigint, id = $2::bigint, "
      "moved_at = $3::timestamptz");
  return statement;
}

CommitHorizon horizonOf(const db::Row& row) {
  CommitHorizon horizon;
  horizon.stamp = db::integerOf(row.at(0));
  if (row.at(1)) horizon.running = std::stoull(*row.at(1));
  horizon.oldest = std::stoull(*row.at(2));
  return horizon;
}

}  // namespace

OutboxRelay::OutboxRelay(db::Database& db, Producer& producer, OutboxRelayConfig config)
    : db_(db),
      producer_(producer),
      config_(config),
      clock_(config.clock != nullptr ? *config.clock : system_clock_),
      read_pending_("relay_read_pending", readPendingText(config.batch_size)) {}

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
      auto interval = leading_.load() ? config_.leader_poll_interval : config_.sweep_interval;
      wake_.wait_for(lock, interval, [this] { return pending_ || !running_; });
      if (!running_) return;
      pending_ = false;
    }
    try {
      while (publishPending() == config_.batch_size) {
      }
    } catch (const std::exception& e) {
      spdlog::warn("outbox pass failed, retrying on the next sweep: {}", db::describeError(e));
    }
  }
}

bool OutboxRelay::lead() {
  auto now = std::chrono::steady_clock::now();
  // A relay that does not lead asks at most once per sweep interval, not on every notify.
  if (attempted_once_ && now - last_attempt_ < config_.sweep_interval) return false;
  attempted_once_ = true;
  last_attempt_ = now;
  if (!connection_) connection_ = std::make_unique<soci::session>(soci::postgresql, db_.conninfo());
  int locked = 0;
  *connection_ << "SELECT pg_try_advisory_lock(:lock)::int", soci::use(kRelayLock, "lock"),
      soci::into(locked);
  leading_ = locked != 0;
  if (leading_) spdlog::info("this process now publishes the outbox");
  return leading_;
}

void OutboxRelay::stepDown() {
  leading_ = false;
  position_.reset();  // a new lead reads it again: another leader may have moved it
  bound_ = {};
  read_through_.reset();
  connection_.reset();  // closing the connection releases the lock, wherever it stood
}

int OutboxRelay::publishPending() {
  std::lock_guard pass(pass_mutex_);
  try {
    if (!leading_ && !lead()) return 0;
    return publishAsLeader(*connection_);
  } catch (...) {
    stepDown();
    throw;
  }
}

void OutboxRelay::publishWithoutOutbox(const std::string& topic, const std::string& key,
                                       const std::string& payload) {
  RecordHeaders headers;
  std::string request_id = RequestScope::current();
  if (!request_id.empty()) headers[kRequestIdHeader] = request_id;
  producer_.produce(topic, key, payload, headers).get();
}

void OutboxRelay::readPosition(soci::session& sql) {
  if (auto rebase = db::bindOutboxToCluster(sql, clock_.now())) {
    spdlog::warn(
        "the outbox's position belonged to database cluster {}, this is cluster {} (a restore "
        "or a logical move): re-based, {} rows to publish",
        rebase->from_cluster, rebase->to_cluster, rebase->rows_to_publish);
  }
  Position position;
  sql << "SELECT stamp, id FROM outbox_relay_position", soci::into(position.stamp),
      soci::into(position.id);
  position_ = position;
}

int OutboxRelay::publishAsLeader(soci::session& sql) {
  if (!position_) readPosition(sql);
  std::optional<long long> bound = bound_.advance(horizonOf(readHorizon().run(sql, {}).at(0)));
  // Every stamp up to the bound had committed when it was read through: a read up to the same
  // bound finds nothing new unless rows were left.
  if (!bound || (bound == read_through_ && !rows_left_)) return 0;
  const Position from = *position_;
  const std::vector<db::Row> rows = read_pending_.run(
      sql, {std::to_string(from.stamp), std::to_string(from.id), std::to_string(*bound)});
  read_through_ = bound;
  rows_left_ = rows.size() == static_cast<size_t>(config_.batch_size);
  if (rows.empty()) return 0;
  enum Column { kStamp, kId, kTopic, kKey, kPayload, kRequestId };

  std::vector<std::future<void>> acks;
  acks.reserve(rows.size());
  for (const db::Row& row : rows) {
    RecordHeaders headers;
    if (row[kRequestId]) headers[kRequestIdHeader] = *row[kRequestId];
    acks.push_back(producer_.produce(*row[kTopic], db::textOr(row[kKey]), *row[kPayload], headers));
  }
  // The position moves over the rows acknowledged in order, up to the first that was not: that
  // one and those after it go again next pass (consumers absorb the repeats, pipeline rule 2).
  size_t published = 0;
  for (size_t i = 0; i < rows.size(); ++i) {
    try {
      acks[i].get();
      if (published == i) ++published;
    } catch (const std::exception& e) {
      spdlog::warn("outbox row {} not published yet: {}", db::textOr(rows[i][kId]),
                   db::describeError(e));
    }
  }
  if (published < rows.size()) rows_left_ = true;
  if (published == 0) return 0;
  // Not in a transaction: only the leader moves the position, through the connection that
  // holds the lock. A crash before this line publishes the rows again.
  const db::Row& last = rows[published - 1];
  Position reached{db::integerOf(last[kStamp]), db::integerOf(last[kId])};
  movePosition().run(
      sql, {std::to_string(reached.stamp), std::to_string(reached.id), formatIso(clock_.now())});
  position_ = reached;
  return static_cast<int>(published);
}

}  // namespace smsgw::topics
