#include "tests/support/webhook_receiver.h"

#include <pistache/endpoint.h>

#include <cctype>
#include <condition_variable>
#include <sstream>

namespace smsgw::testing {

using namespace Pistache;

struct WebhookReceiver::Impl {
  std::mutex mutex;
  std::condition_variable arrived;
  std::vector<ReceivedRequest> requests;
  std::unique_ptr<Http::Endpoint> endpoint;
};

namespace {

class Handler final : public Http::Handler {
 public:
  HTTP_PROTOTYPE(Handler)
  explicit Handler(WebhookReceiver::Impl* impl) : impl_(impl) {}

  void onRequest(const Http::Request& request, Http::ResponseWriter writer) override {
    ReceivedRequest received;
    for (const auto& [name, raw] : request.headers().rawList()) {
      std::string lower = name;
      for (auto& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      received.headers[lower] = raw.value();
    }
    received.body = request.body();
    {
      std::lock_guard lock(impl_->mutex);
      impl_->requests.push_back(std::move(received));
    }
    impl_->arrived.notify_all();
    writer.send(Http::Code::Ok, "{}");
  }

 private:
  WebhookReceiver::Impl* impl_;
};

}  // namespace

WebhookReceiver::WebhookReceiver() : impl_(std::make_unique<Impl>()) {
  impl_->endpoint = std::make_unique<Http::Endpoint>(Address("127.0.0.1", Port(0)));
  impl_->endpoint->init(Http::Endpoint::options().threads(1).flags(Tcp::Options::ReuseAddr));
  impl_->endpoint->setHandler(Http::make_handler<Handler>(impl_.get()));
  impl_->endpoint->serveThreaded();
}

WebhookReceiver::~WebhookReceiver() {
  impl_->endpoint->shutdown();
}

std::string WebhookReceiver::url() const {
  return "http://127.0.0.1:" + std::to_string(static_cast<uint16_t>(impl_->endpoint->getPort())) +
         "/hook";
}

std::vector<ReceivedRequest> WebhookReceiver::waitFor(size_t count, std::chrono::seconds timeout) {
  std::unique_lock lock(impl_->mutex);
  impl_->arrived.wait_for(lock, timeout, [&] { return impl_->requests.size() >= count; });
  return impl_->requests;
}

}  // namespace smsgw::testing
