// smsgw-admin: the staff command line. Decides allowance requests, sets toll-free verification
// statuses, releases numbers as staff, credits accounts, runs rent billing as of a time and
// replays a topic range through its worker, and audits a restored database against the events
// topic.
#include <CLI/CLI.hpp>
#include <iostream>

#include "adapters/http_carrier_client.h"
#include "adapters/log.h"
#include "adapters/settings.h"
#include "ops/admin/replay.h"
#include "ops/admin/restore_audit.h"
#include "ops/admin/staff.h"
#include "ops/admin/topics.h"

using namespace smsgw;

namespace {

// The clock of a staff run: the real time, or the time given with --now (demos and tests).
class StaffClock final : public Clock {
 public:
  explicit StaffClock(std::optional<TimePoint> fixed) : fixed_(fixed) {}
  TimePoint now() const override { return fixed_.value_or(std::chrono::system_clock::now()); }

 private:
  std::optional<TimePoint> fixed_;
};

TimePoint requireIso(const std::string& text, const char* option) {
  auto parsed = parseIso(text);
  if (!parsed) {
    throw CLI::ValidationError(option, "expects ISO 8601 UTC, e.g. 2027-01-15T00:00:00Z");
  }
  return *parsed;
}

}  // namespace

int main(int argc, char** argv) {
  ProcessSettings settings(
      "smsgw-admin", "Staff commands for the SMS gateway (prints one JSON object per command)");
  std::string database_url;
  CarrierClientConfig carrier_config;
  addDatabaseSettings(settings, database_url);
  addCarrierSettings(settings, carrier_config);
  std::string mail_drop_dir;
  addMailerSettings(settings, mail_drop_dir);
  KafkaSettings kafka;
  addKafkaSettings(settings, kafka, false);  // the topics commands only
  CLI::App& app = settings.cli();
  app.require_subcommand(1);

  auto* allowance = app.add_subcommand("allowance", "phone-number allowance requests");
  allowance->require_subcommand(1);
  std::string status_filter, account_filter, request_id, note;
  std::optional<int> granted_limit;
  auto* allowance_list = allowance->add_subcommand("list", "list requests, newest first");
  allowance_list->add_option("--status", status_filter, "PENDING, APPROVED or DENIED")
      ->check(CLI::IsMember({"PENDING", "APPROVED", "DENIED"}));
  allowance_list->add_option("--account", account_filter, "one account only");
  auto* approve = allowance->add_subcommand("approve", "approve: raises the account's limit");
  approve->add_option("id", request_id, "allowance request id (alw_…)")->required();
  approve->add_option("--limit", granted_limit, "limit granted (default: the one requested)");
  approve->add_option("--note", note, "staff note, shown to the customer");
  auto* deny = allowance->add_subcommand("deny", "deny a request");
  deny->add_option("id", request_id, "allowance request id (alw_…)")->required();
  deny->add_option("--note", note, "staff note, shown to the customer");

  auto* toll_free = app.add_subcommand("toll-free", "toll-free verification");
  toll_free->require_subcommand(1);
  std::string number, verification_status;
  bool new_application = false;
  auto* toll_free_set = toll_free->add_subcommand("set", "set the verification status");
  toll_free_set->add_option("number", number, "phone number id (pn_…) or E.164")->required();
  toll_free_set->add_option("--status", verification_status, "DRAFT … APPROVED, REJECTED, DECLINED")
      ->required();
  toll_free_set->add_flag("--new-application", new_application,
                          "open a new application (the current one is cancelled)");

  auto* number_cmd = app.add_subcommand("number", "phone numbers");
  number_cmd->require_subcommand(1);
  auto* release = number_cmd->add_subcommand("release", "release as staff (admin_released)");
  release->add_option("number", number, "phone number id (pn_…) or E.164")->required();
  auto* releasing = number_cmd->add_subcommand(
      "releasing", "numbers whose release the carrier has not confirmed (one JSON line each)");

  auto* account = app.add_subcommand("account", "accounts");
  account->require_subcommand(1);
  std::string account_id;
  long long cents = 0;
  auto* credit = account->add_subcommand("credit", "credit the balance (reactivates numbers)");
  credit->add_option("account", account_id, "account id (acc_…)")->required();
  credit->add_option("--cents", cents, "amount in cents CAD")->required();
  credit->add_option("--note", note, "why (in the ledger)")->required();

  int daily_limit = 0;
  auto* daily_limit_cmd = account->add_subcommand(
      "set-daily-limit", "messages per rolling 24 hours (-1: the platform default)");
  daily_limit_cmd->add_option("account", account_id, "account id (acc_…)")->required();
  daily_limit_cmd->add_option("--limit", daily_limit, "messages per 24 hours")->required();
  int request_rate = 0;
  auto* request_rate_cmd = account->add_subcommand(
      "set-request-rate", "API requests per second (-1: the platform default)");
  request_rate_cmd->add_option("account", account_id, "account id (acc_…)")->required();
  request_rate_cmd->add_option("--per-second", request_rate, "requests per second")->required();
  std::optional<int> broadcast_members, broadcasts_per_day;
  auto* broadcast_cmd = account->add_subcommand(
      "set-broadcast-limits",
      "group broadcasts: members per broadcast, broadcasts per 24 hours (-1: the platform's)");
  broadcast_cmd->add_option("account", account_id, "account id (acc_…)")->required();
  broadcast_cmd->add_option("--max-members", broadcast_members, "members a broadcast may reach");
  broadcast_cmd->add_option("--per-day", broadcasts_per_day, "broadcasts per rolling 24 hours");
  auto* resume_cmd =
      account->add_subcommand("resume-sending", "end an automatic pause of LIVE SMS sending");
  resume_cmd->add_option("account", account_id, "account id (acc_…)")->required();
  std::string status_reason;
  auto* suspend_cmd = account->add_subcommand("suspend", "suspend an ACTIVE account");
  suspend_cmd->add_option("account", account_id, "account id (acc_…)")->required();
  suspend_cmd->add_option("--reason", status_reason, "why (kept on the account)")->required();
  auto* reinstate_cmd = account->add_subcommand("reinstate", "reinstate a SUSPENDED account");
  reinstate_cmd->add_option("account", account_id, "account id (acc_…)")->required();
  auto* close_cmd =
      account->add_subcommand("close", "close an account for good (release its numbers first)");
  close_cmd->add_option("account", account_id, "account id (acc_…)")->required();
  close_cmd->add_option("--reason", status_reason, "why (kept on the account)")->required();
  int inbound_cap = 0;
  auto* inbound_cap_cmd =
      account->add_subcommand("set-inbound-cap", "inbound SMS per rolling 24 hours (0: unlimited)");
  inbound_cap_cmd->add_option("account", account_id, "account id (acc_…)")->required();
  inbound_cap_cmd->add_option("--cap", inbound_cap, "texts per 24 hours")->required();

  auto* rent = app.add_subcommand("rent", "rent billing");
  rent->require_subcommand(1);
  std::string as_of_text, now_text;
  std::optional<std::string> rent_account;
  int wait_seconds = 0;
  auto* rent_run = rent->add_subcommand("run", "run a billing pass as of a time");
  rent_run->add_option("--as-of", as_of_text, "ISO 8601 UTC (default: now)");
  rent_run->add_option("--account", rent_account, "one account's numbers only");
  int settle_after = 120;
  rent_run->add_option("--settle-after", settle_after,
                       "settle purchases and releases pending for longer than this many seconds "
                       "(by asking the carrier how their order or release went)");
  rent_run->add_option("--wait", wait_seconds,
                       "seconds to wait for the rent-billing worker to handle what was published");
  app.add_option("--now", now_text, "act as if it were this time (ISO 8601 UTC)");

  auto* topics_cmd = app.add_subcommand("topics", "the catalogue's topics on a Kafka cluster");
  topics_cmd->require_subcommand(1);
  auto* topics_check = topics_cmd->add_subcommand(
      "check", "each topic and its .dlq: present with the catalogue's partitions? (exit 1 if not)");
  int replication_factor = 3;
  auto* topics_create =
      topics_cmd->add_subcommand("create", "create the missing topics (existing ones are kept)");
  topics_create->add_option("--replication-factor", replication_factor,
                            "replicas of each partition (3 on a production cluster)");
  bool grant_roles = false;
  topics_create->add_flag("--acls", grant_roles,
                          "also grant each process kind's Kafka user its ACLs (a cluster with "
                          "SASL and an authorizer; topics/kafka_roles.h)");
  int broker_wait_seconds = 60;
  topics_create->add_option("--wait", broker_wait_seconds,
                            "seconds to wait for as many brokers as replicas (a cluster starting "
                            "beside this job)");

  workers::ReplayCommand replay;
  std::string worker_dir;
  auto* replay_cmd = app.add_subcommand(
      "replay",
      "re-process a topic range through its worker's handler (dry run without --execute)");
  workers::addReplayOptions(*replay_cmd, replay);
  replay_cmd->add_option("--worker-dir", worker_dir,
                         "where the worker executables are (default: beside smsgw-admin, or the "
                         "build tree's workers/)");

  std::string since_text;
  auto* audit_cmd = app.add_subcommand(
      "restore-audit",
      "after a database restore: what the events topic holds from the backup's time on that the "
      "database lost, and the QUEUED messages that had already left");
  audit_cmd->add_option("--since", since_text, "the backup's time (ISO 8601 UTC)")->required();
  bool settle = false;
  audit_cmd->add_flag("--settle", settle,
                      "record the QUEUED messages the carrier had taken as sent (their "
                      "message.sent event), so the sender does not text them again");

  settings.parse(argc, argv);
  // The worker that handles the topic runs the replay with its own settings: hand over to it.
  if (replay_cmd->parsed()) return admin::handOverReplay(replay, worker_dir);
  if (topics_check->parsed() || topics_create->parsed()) {
    initLogging("admin");
    return admin::manageTopics(kafka, topics_create->parsed(), replication_factor,
                               std::chrono::seconds(broker_wait_seconds), grant_roles);
  }
  initLogging("admin");
  if (audit_cmd->parsed()) {
    try {
      db::Database db(database_url, 1);
      return admin::auditRestore(db, kafka, requireIso(since_text, "--since"), settle,
                                 std::chrono::system_clock::now());
    } catch (const CLI::Error& e) {
      return app.exit(e);
    }
  }
  try {
    StaffClock clock(now_text.empty() ? std::nullopt
                                      : std::optional(requireIso(now_text, "--now")));
    db::Database db(database_url, 1);
    HttpCarrierClient carrier(carrier_config);
    LogMailer mailer(mail_drop_dir);
    admin::Staff staff{db, carrier, mailer, clock};

    if (allowance_list->parsed())
      admin::listAllowanceRequests(staff, status_filter, account_filter);
    if (approve->parsed())
      admin::decideAllowanceRequest(staff, request_id, true, granted_limit, note);
    if (deny->parsed()) admin::decideAllowanceRequest(staff, request_id, false, std::nullopt, note);
    if (toll_free_set->parsed()) {
      admin::setTollFreeVerification(staff, number, verification_status, new_application);
    }
    if (release->parsed()) admin::releaseNumberAsStaff(staff, number);
    if (releasing->parsed()) admin::listReleasesInDoubt(staff);
    if (credit->parsed()) admin::creditAccount(staff, account_id, cents, note);
    if (inbound_cap_cmd->parsed()) admin::setInboundCap(staff, account_id, inbound_cap);
    if (daily_limit_cmd->parsed()) admin::setDailySendLimit(staff, account_id, daily_limit);
    if (request_rate_cmd->parsed()) admin::setRequestRate(staff, account_id, request_rate);
    if (broadcast_cmd->parsed()) {
      admin::setBroadcastLimits(staff, account_id, broadcast_members, broadcasts_per_day);
    }
    if (resume_cmd->parsed()) admin::resumeSending(staff, account_id);
    if (suspend_cmd->parsed()) {
      admin::changeAccountStanding(staff, account_id, admin::StandingCommand::Suspend,
                                   status_reason);
    }
    if (reinstate_cmd->parsed()) {
      admin::changeAccountStanding(staff, account_id, admin::StandingCommand::Reinstate, "");
    }
    if (close_cmd->parsed()) {
      admin::changeAccountStanding(staff, account_id, admin::StandingCommand::Close, status_reason);
    }
    if (rent_run->parsed()) {
      TimePoint as_of = as_of_text.empty() ? clock.now() : requireIso(as_of_text, "--as-of");
      admin::runRent(staff, as_of, rent_account, wait_seconds, std::chrono::seconds(settle_after));
    }
    return 0;
  } catch (const CLI::Error& e) {
    return app.exit(e);
  } catch (const std::exception& e) {
    std::cerr << "smsgw-admin: " << e.what() << "\n";
    return 1;
  }
}
