#include "adapters/mailer.h"

#include <fmt/format.h>
#include <spdlog/spdlog.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>

namespace smsgw {

LogMailer::LogMailer(std::string drop_dir) : drop_dir_(std::move(drop_dir)) {}

void LogMailer::send(const OutgoingEmail& email) {
  if (drop_dir_.empty()) {
    spdlog::info("email to {}: {} | {}", email.to, email.subject, email.body);
    return;
  }
  // Named by the time and a counter, so a folder listing sorts in the order they were sent.
  static std::atomic<unsigned> sequence{0};
  auto micros = std::chrono::duration_cast<std::chrono::microseconds>(
                    std::chrono::system_clock::now().time_since_epoch())
                    .count();
  std::filesystem::path path =
      std::filesystem::path(drop_dir_) /
      fmt::format("{:020}-{:06}-{}.eml", micros, sequence++ % 1000000, ::getpid());
  std::error_code error;
  std::filesystem::create_directories(drop_dir_, error);
  std::ofstream out(path);
  out << "To: " << email.to << "\nSubject: " << email.subject << "\n\n" << email.body;
  out.close();
  if (!out) {
    spdlog::error("email to {}: {} could not be written to {}", email.to, email.subject,
                  path.string());
    return;
  }
  spdlog::info("email to {}: {} (in {})", email.to, email.subject, path.string());
}

}  // namespace smsgw
