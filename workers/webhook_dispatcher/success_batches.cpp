#include "workers/webhook_dispatcher/success_batches.h"

#include <spdlog/spdlog.h>

#include "db/error_text.h"
#include "workers/runtime/retries.h"

namespace smsgw::workers {

SuccessBatches::SuccessBatches(db::Database& db, const Clock& clock, size_t max_batch)
    : db_(db), clock_(clock), max_batch_(max_batch), writer_([this] { run(); }) {}

SuccessBatches::~SuccessBatches() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  ready_.notify_all();
  writer_.join();
}

void SuccessBatches::add(webhooks::FirstSuccess success, std::function<void()> settled) {
  {
    std::lock_guard lock(mutex_);
    waiting_.push_back({std::move(success), std::move(settled)});
  }
  ready_.notify_one();
}

void SuccessBatches::waitIdle() {
  std::unique_lock lock(mutex_);
  idle_.wait(lock, [this] { return waiting_.empty() && !writing_; });
}

void SuccessBatches::run() {
  std::unique_lock lock(mutex_);
  while (true) {
    ready_.wait(lock, [this] { return stopping_ || !waiting_.empty(); });
    if (waiting_.empty()) return;  // stopping, and everything written
    std::vector<Waiting> batch;
    while (!waiting_.empty() && batch.size() < max_batch_) {
      batch.push_back(std::move(waiting_.front()));
      waiting_.pop_front();
    }
    writing_ = true;
    lock.unlock();
    write(batch);
    lock.lock();
    writing_ = false;
    if (waiting_.empty()) idle_.notify_all();
  }
}

void SuccessBatches::write(std::vector<Waiting>& batch) {
  std::vector<webhooks::FirstSuccess> successes;
  successes.reserve(batch.size());
  for (auto& waiting : batch) successes.push_back(std::move(waiting.success));
  try {
    withRetries("settling successful webhook attempts", 3, [&] {
      db::Session sql(db_);
      webhooks::settleFirstSuccesses(*sql, successes, clock_.now());
    });
  } catch (const std::exception& e) {
    // As for a single attempt: the deliveries were made, only their rows are missing.
    spdlog::error("settling {} successful webhook attempts failed for good: {}", batch.size(),
                  db::describeError(e));
  }
  for (auto& waiting : batch) {
    try {
      waiting.settled();
    } catch (const std::exception& e) {
      spdlog::error("after settling a webhook attempt: {}", e.what());
    }
  }
}

}  // namespace smsgw::workers
