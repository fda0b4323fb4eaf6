#include "db/process_registry.h"

#include <soci/soci.h>
#include <unistd.h>

namespace smsgw::db {

ProcessInstance thisProcess(const std::string& process, const std::string& consumer_group) {
  char host[256] = {};
  ::gethostname(host, sizeof host - 1);
  ProcessInstance instance;
  instance.process = process;
  instance.consumer_group = consumer_group;
  instance.host = host;
  instance.pid = static_cast<int>(::getpid());
  instance.instance_id = instance.host + "/" + std::to_string(instance.pid) + "/" + process;
  return instance;
}

void beat(soci::session& sql, const ProcessInstance& instance, TimePoint now) {
  std::string at = formatIso(now);
  soci::indicator group = instance.consumer_group.empty() ? soci::i_null : soci::i_ok;
  sql << "INSERT INTO process_heartbeats (instance_id, process, consumer_group, host, pid, "
         "started_at, seen_at) VALUES (:id, :process, :group, :host, :pid, :now::timestamptz, "
         ":now2::timestamptz) ON CONFLICT (instance_id) DO UPDATE SET seen_at = EXCLUDED.seen_at, "
         "stopped_at = NULL",
      soci::use(instance.instance_id), soci::use(instance.process),
      soci::use(instance.consumer_group, group), soci::use(instance.host), soci::use(instance.pid),
      soci::use(at), soci::use(at);
}

void stopped(soci::session& sql, const ProcessInstance& instance, TimePoint now) {
  std::string at = formatIso(now);
  sql << "UPDATE process_heartbeats SET stopped_at = :now::timestamptz WHERE instance_id = :id",
      soci::use(at), soci::use(instance.instance_id);
}

std::vector<std::string> liveMembers(soci::session& sql, const std::string& consumer_group,
                                     TimePoint now, const std::string& except) {
  std::string since = formatIso(now - kHeartbeatLapse);
  std::vector<std::string> members(100);
  sql << "SELECT instance_id FROM process_heartbeats WHERE consumer_group = :g AND stopped_at IS "
         "NULL AND seen_at > :since::timestamptz AND instance_id <> :except ORDER BY instance_id "
         "LIMIT 100",
      soci::use(consumer_group), soci::use(since), soci::use(except), soci::into(members);
  return members;
}

}  // namespace smsgw::db
