#pragma once
// A fresh PostgreSQL database for one test, migrated from empty with the real migrations,
// dropped afterwards. Keeps a test's rows away from the running stack's relays and workers.

#include <string>
#include <vector>

namespace smsgw::testing {

class ScratchDatabase {
 public:
  explicit ScratchDatabase(bool migrate = true);
  ~ScratchDatabase();
  const std::string& url() const { return url_; }
  const std::string& name() const { return name_; }
  void exec(const std::string& sql) const;  // runs SQL on the scratch database; throws on error

 private:
  std::string name_;
  std::string url_;
};

std::string adminUrl();

// The process kinds, each signing in to PostgreSQL as smsgw_<kind> (db/grants.sql; the stack's
// cluster has these roles, ops/lib/stack.sh, and so does every LocalCluster).
const std::vector<std::string>& processKinds();

// `url` signed in as the role of the process kind that `process` names (api, sender-0,
// inbound-keyword-2, inbound_keyword ...: smsgw_api, smsgw_sender, smsgw_inbound_keyword), as
// production signs each kind in (db/grants.sql); `url` itself for any other name (the simulator).
std::string asProcessRole(const std::string& url, const std::string& process);

}  // namespace smsgw::testing
