#include "workers/webhook_dispatcher/delivery_pool.h"

#include <spdlog/spdlog.h>

#include "db/error_text.h"

namespace smsgw::workers {

DeliveryPool::DeliveryPool(DeliveryPoolLimits limits) : limits_(limits) {
  for (int i = 0; i < limits_.threads; ++i) threads_.emplace_back([this] { work(); });
}

DeliveryPool::~DeliveryPool() {
  std::vector<DeliveryJob> unstarted;
  {
    std::lock_guard lock(mutex_);
    closing_ = true;
    for (auto& [id, queue] : endpoints_) {
      for (auto& job : queue.waiting) unstarted.push_back(std::move(job));
      queue.waiting.clear();
    }
    turns_.clear();
    waiting_ = 0;
  }
  work_ready_.notify_all();
  for (auto& job : unstarted) {
    try {
      job.park();
    } catch (const std::exception& e) {
      spdlog::error("could not park a webhook delivery at shutdown: {}", db::describeError(e));
    }
  }
  for (auto& thread : threads_) thread.join();
}

bool DeliveryPool::submit(const std::string& endpoint_id, DeliveryJob job) {
  {
    std::lock_guard lock(mutex_);
    if (closing_) return false;
    EndpointQueue& queue = endpoints_[endpoint_id];
    if (queue.waiting.size() >= limits_.endpoint_backlog) return false;
    queue.waiting.push_back(std::move(job));
    ++waiting_;
    offerTurn(endpoint_id, queue);
  }
  work_ready_.notify_one();
  return true;
}

void DeliveryPool::offerTurn(const std::string& endpoint_id, EndpointQueue& queue) {
  if (queue.in_turn || queue.waiting.empty() || queue.running >= limits_.per_endpoint) return;
  queue.in_turn = true;
  turns_.push_back(endpoint_id);
}

DeliveryPool::Capacity DeliveryPool::capacity() const {
  std::lock_guard lock(mutex_);
  Capacity out;
  size_t taken = running_;
  for (const auto& [id, queue] : endpoints_) {
    // Jobs waiting behind an endpoint's own limit take no thread from anyone else.
    if (queue.running >= limits_.per_endpoint)
      out.saturated.push_back(id);
    else
      taken += queue.waiting.size();
  }
  size_t threads = static_cast<size_t>(limits_.threads);
  out.spare = taken >= threads ? 0 : threads - taken;
  return out;
}

void DeliveryPool::waitIdle() const {
  std::unique_lock lock(mutex_);
  idle_.wait(lock, [this] { return waiting_ == 0 && running_ == 0; });
}

void DeliveryPool::work() {
  std::unique_lock lock(mutex_);
  while (true) {
    work_ready_.wait(lock, [this] { return closing_ || !turns_.empty(); });
    if (turns_.empty()) return;  // closing, nothing left to take
    std::string endpoint_id = std::move(turns_.front());
    turns_.pop_front();
    EndpointQueue& queue = endpoints_[endpoint_id];
    queue.in_turn = false;
    DeliveryJob job = std::move(queue.waiting.front());
    queue.waiting.pop_front();
    --waiting_;
    ++queue.running;
    ++running_;
    offerTurn(endpoint_id, queue);  // its next job goes to the back of the line
    lock.unlock();
    try {
      job.run();
    } catch (const std::exception& e) {
      spdlog::error("webhook delivery to {} failed to run: {}", endpoint_id, db::describeError(e));
    }
    lock.lock();
    EndpointQueue& after = endpoints_[endpoint_id];
    --after.running;
    --running_;
    offerTurn(endpoint_id, after);
    if (after.waiting.empty() && after.running == 0) endpoints_.erase(endpoint_id);
    if (!turns_.empty()) work_ready_.notify_one();
    if (waiting_ == 0 && running_ == 0) idle_.notify_all();
  }
}

}  // namespace smsgw::workers
