#include "tests/support/mail_drop.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <thread>

#include "tests/support/test_env.h"

namespace smsgw::testing {
namespace {

DroppedEmail read(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  std::string all = text.str();
  DroppedEmail email;
  size_t head_end = all.find("\n\n");
  std::istringstream head(all.substr(0, head_end));
  for (std::string line; std::getline(head, line);) {
    if (line.starts_with("To: ")) email.to = line.substr(4);
    if (line.starts_with("Subject: ")) email.subject = line.substr(9);
  }
  if (head_end != std::string::npos) email.body = all.substr(head_end + 2);
  return email;
}

}  // namespace

std::vector<DroppedEmail> emailsTo(const std::string& to) {
  std::vector<std::filesystem::path> files;
  std::error_code error;
  for (const auto& entry :
       std::filesystem::directory_iterator(requiredEnv("MAIL_DROP_DIR"), error)) {
    if (entry.path().extension() == ".eml") files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());  // named by the time they were written
  std::vector<DroppedEmail> emails;
  for (const auto& file : files) {
    DroppedEmail email = read(file);
    if (email.to == to) emails.push_back(std::move(email));
  }
  return emails;
}

std::string linkTokenMailedTo(const std::string& to, const std::string& page) {
  std::regex link("/dashboard/#/" + page + "/([A-Za-z0-9]+)");
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (true) {
    auto emails = emailsTo(to);
    for (auto it = emails.rbegin(); it != emails.rend(); ++it) {
      std::smatch found;
      if (std::regex_search(it->body, found, link)) return found[1];
    }
    if (std::chrono::steady_clock::now() > deadline) return "";
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
}

}  // namespace smsgw::testing
