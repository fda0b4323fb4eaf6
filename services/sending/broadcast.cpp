// POST /v1/contact-groups/{id}/messages (broadcast.h).
#include "services/sending/broadcast.h"

#include <soci/soci.h>

#include <algorithm>
#include <map>
#include <variant>

#include "adapters/log.h"
#include "db/procedures/accept_broadcast_batch.h"
#include "domain/crypto.h"
#include "domain/errors.h"
#include "domain/ids.h"
#include "domain/sms_segments.h"
#include "services/compliance/consent_check.h"
#include "services/contacts/groups.h"
#include "services/messaging/charges.h"
#include "services/messaging/lifecycle.h"
#include "services/numbers/sending_number.h"
#include "services/sending/broadcast_members.h"
#include "services/sending/broadcast_standing.h"
#include "services/sending/send_checks.h"
#include "topics/catalogue.h"
#include "topics/event_writer.h"
#include "topics/records.h"

namespace smsgw::sending {
namespace {

// What an earlier request with the same Idempotency-Key left.
struct EarlierBroadcast {
  std::string id;
  std::optional<std::string> response;  // the 207 it answered, if it got that far
  bool slot_in_window = false;          // it used its slot less than 24 hours ago
};

std::optional<EarlierBroadcast> earlierBroadcast(soci::session& sql, const Caller& caller,
                                                 const BroadcastRequest& request, TimePoint now) {
  if (request.idempotency_key.empty()) return std::nullopt;
  std::string mode(toString(caller.mode)), at = formatIso(now), fingerprint, response;
  soci::indicator response_ind = soci::i_null;
  int in_window = 0;
  EarlierBroadcast earlier;
  sql << "SELECT id, fingerprint, response::text, (slot_at > :now::timestamptz - interval "
         "'24 hours')::int FROM broadcasts WHERE account_id = :a AND mode = :m AND "
         "idempotency_key = :k",
      soci::use(at), soci::use(caller.account_id), soci::use(mode),
      soci::use(request.idempotency_key), soci::into(earlier.id), soci::into(fingerprint),
      soci::into(response, response_ind), soci::into(in_window);
  if (!sql.got_data()) return std::nullopt;
  if (fingerprint != request.fingerprint) throw ApiError(ErrorCode::IDEMPOTENCY_KEY_REUSED);
  if (response_ind == soci::i_ok) earlier.response = response;
  earlier.slot_in_window = in_window != 0;
  return earlier;
}

// The refusals that concern the whole group, but money, decided before anyone is messaged.
void checkGroupWide(const Caller& caller, const BroadcastRequest& request,
                    const BroadcastStanding& standing, const SendPolicy& policy, bool uses_slot) {
  // The account before its number: an unverified account holds none yet.
  checkLiveAccount(caller, request.skip_consent_check, standing.sender);
  if (caller.live()) numbers::requireUsableSendingNumber(standing.sender.number, request.from);
  int max_members = standing.own_max_members.value_or(policy.broadcast_max_members);
  if (standing.members > max_members) {
    throw ApiError(ErrorCode::BROADCAST_TOO_LARGE,
                   {{"members", standing.members}, {"limit", max_members}});
  }
  int per_day = standing.own_per_day.value_or(policy.broadcasts_per_day);
  if (uses_slot && standing.slots_used >= per_day) {
    throw ApiError(ErrorCode::BROADCAST_LIMIT_REACHED,
                   {{"limit", per_day}, {"count", standing.slots_used}},
                   std::max(1, standing.slot_frees_in));
  }
}

// A member's line of the answer.
nlohmann::json result(const std::string& to, const std::string& status,
                      const std::optional<std::string>& message_id,
                      const std::optional<std::string>& error) {
  nlohmann::json line = {{"to", to}, {"status", status}};
  if (message_id) line["message_id"] = *message_id;
  if (error) line["error"] = *error;
  return line;
}

nlohmann::json messageResult(const std::string& to, const ReachedMessage& message) {
  std::string status = message.status;
  std::transform(status.begin(), status.end(), status.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return result(to, status, message.id, message.error_code);
}

// What the checks decided, before anything is written.
struct Plan {
  std::string broadcast_id;
  int parts = 0;
  int part_price_cents = 0;
  std::vector<MemberStanding> members;
  std::vector<MemberDecision> decisions;
  std::vector<size_t> to_message;  // indexes of the members to message, in order
};

// Marks the implied consents the checks found lapsed EXPIRED, as a single send's check does.
void expireLapsedConsents(soci::session& sql, const Caller& caller, const Plan& plan,
                          TimePoint now) {
  std::vector<std::string> lapsed;
  for (size_t i = 0; i < plan.members.size(); ++i)
    if (plan.decisions[i].consent_lapsed) lapsed.push_back(plan.members[i].to);
  compliance::expireLapsedConsents(sql, caller.account_id, std::string(toString(caller.mode)),
                                   lapsed, now);
}

// The read-and-check transaction. Returns the stored answer of a repeat, or the plan.
std::variant<nlohmann::json, Plan> check(const SendServices& services, const Caller& caller,
                                         const BroadcastRequest& request, int parts,
                                         TimePoint now) {
  const SendPolicy& policy = services.policy;
  db::Session sql(services.db);
  soci::transaction tx(*sql);
  std::optional<EarlierBroadcast> earlier = earlierBroadcast(*sql, caller, request, now);
  if (earlier && earlier->response && earlier->slot_in_window)
    return nlohmann::json::parse(*earlier->response);
  contacts::requireOwnGroup(*sql, caller, request.group_id, false);
  std::string body_sha256 = crypto::sha256Hex(request.body);
  bool uses_slot = !earlier || !earlier->slot_in_window;
  BroadcastStanding standing =
      readBroadcastStanding(*sql, caller, request.group_id, request.from, body_sha256, now);
  checkGroupWide(caller, request, standing, policy, uses_slot);

  Plan plan;
  plan.parts = parts;
  plan.part_price_cents = standing.counts.part_price_cents;
  plan.members =
      readMemberStandings(*sql, caller, policy, earlier ? std::optional(earlier->id) : std::nullopt,
                          request.group_id, request.from, body_sha256, now);
  int already_fanned = 0;
  for (size_t i = 0; i < plan.members.size(); ++i) {
    const MemberStanding& member = plan.members[i];
    plan.decisions.push_back(member.reached ? MemberDecision{}
                                            : decideMember(caller, request.from, member,
                                                           request.skip_consent_check, policy));
    if (member.reached || plan.decisions.back().refusal) continue;
    plan.to_message.push_back(i);
    if (member.fanned) ++already_fanned;
  }
  int adding = static_cast<int>(plan.to_message.size());
  checkDailyLimit(standing.counts, policy, adding);
  SendCounts fanout = standing.counts;  // its recipients, less those counted again below
  fanout.fanout_recipients -= already_fanned;
  // Staff who let an account broadcast to more members than the fan-out limit let its
  // broadcasts reach that many.
  SendPolicy fanout_policy = policy;
  fanout_policy.fanout_limit = std::max(policy.fanout_limit, standing.own_max_members.value_or(0));
  checkFanout(fanout, fanout_policy, adding);
  long long cost = static_cast<long long>(adding) * parts * plan.part_price_cents;
  if (caller.live() && cost > standing.balance_cents) {
    throw ApiError(ErrorCode::INSUFFICIENT_BALANCE,
                   {{"required_cents", cost}, {"balance_cents", standing.balance_cents}});
  }
  expireLapsedConsents(*sql, caller, plan, now);

  std::string mode(toString(caller.mode)), at = formatIso(now);
  if (earlier) {
    plan.broadcast_id = earlier->id;
    if (uses_slot) {
      *sql << "UPDATE broadcasts SET slot_at = :now::timestamptz WHERE id = :id", soci::use(at),
          soci::use(plan.broadcast_id);
    }
  } else {
    plan.broadcast_id = newId("bc");
    std::string key = request.idempotency_key;
    soci::indicator key_ind = key.empty() ? soci::i_null : soci::i_ok;
    *sql << "INSERT INTO broadcasts (id, account_id, mode, group_id, idempotency_key, "
            "fingerprint, slot_at, created_at) VALUES (:id, :a, :m, :g, :k, :f, "
            ":now::timestamptz, :now2::timestamptz) ON CONFLICT DO NOTHING RETURNING id",
        soci::use(plan.broadcast_id), soci::use(caller.account_id), soci::use(mode),
        soci::use(request.group_id), soci::use(key, key_ind), soci::use(request.fingerprint),
        soci::use(at), soci::use(at), soci::into(plan.broadcast_id);
    // A concurrent first request with the same key committed meanwhile: let the client retry.
    if (!sql->got_data())
      throw ApiError(ErrorCode::CONFLICT, {{"reason", "idempotent_request_raced"}});
  }
  tx.commit();
  return plan;
}

// The members of one batch as accept_broadcast_batch takes them: ids, charges and records
// fixed here, once.
std::string batchMembers(const Caller& caller, const BroadcastRequest& request, const Plan& plan,
                         size_t begin, size_t end) {
  std::string mode(toString(caller.mode)), from = request.from.str();
  std::string event_type(messaging::transitionOf(messaging::Move::Accept).event);
  std::string members = "[";
  for (size_t k = begin; k < end; ++k) {
    size_t i = plan.to_message[k];
    const std::string& to = plan.members[i].to;
    std::string id = newId("msg");
    auto event = topics::prepareEvent(
        {caller.account_id, event_type, caller.live(), messaging::queuedEvent({id, from, to})});
    const auto& consent = plan.decisions[i].consent_type;
    nlohmann::json member = {
        {"id", id},
        {"to", to},
        {"consent", consent ? nlohmann::json(*consent) : nlohmann::json(nullptr)},
        {"charge_reference", messaging::chargeReference(id, 1)},
        {"charge_description", "SMS to " + to + " (" + std::to_string(plan.parts) + " parts)"},
        {"event_id", event.id},
        {"outbound", topics::OutboundSms{id, caller.account_id, from, mode}.toJson().dump()}};
    std::string text = member.dump();
    text.pop_back();  // the event record is JSON already: spliced in, not parsed again
    text += ",\"event\":" + event.record_json + "}";
    if (k > begin) members += ',';
    members += text;
  }
  return members + "]";
}

struct BatchOutcome {
  std::optional<ErrorCode> refusal;
  std::map<std::string, ReachedMessage> messaged;  // by member number
};

BatchOutcome acceptBatch(const SendServices& services, const Caller& caller,
                         const BroadcastRequest& request, const Plan& plan, size_t begin,
                         size_t end, TimePoint now) {
  std::string members = batchMembers(caller, request, plan, begin, end);
  const messaging::Transition& move = messaging::transitionOf(messaging::Move::Accept);
  db::Session sql(services.db);
  soci::transaction tx(*sql);
  db::BatchAccepted accepted = db::acceptBroadcastBatch(
      *sql, {.broadcast_id = plan.broadcast_id,
             .account_id = caller.account_id,
             .mode = std::string(toString(caller.mode)),
             .from = request.from.str(),
             .body = request.body,
             .parts = plan.parts,
             .part_price_cents = plan.part_price_cents,
             .body_sha256 = crypto::sha256Hex(request.body),
             .status = std::string(messaging::toString(move.to)),
             .event_type = std::string(move.event),
             .toll_free_parts_per_minute = services.policy.toll_free_parts_per_minute,
             .local_parts_per_minute = services.policy.local_parts_per_minute,
             .events_topic = std::string(topics::kEvents.name),
             .outbound_topic = std::string(topics::kSmsOutbound.name),
             .members = std::move(members),
             .now = now,
             .request_id = RequestScope::current()});
  BatchOutcome outcome;
  if (accepted.refusal) {  // the transaction rolls back: nothing of the batch is written
    outcome.refusal = *accepted.refusal == db::BatchRefusal::InsufficientBalance
                          ? ErrorCode::INSUFFICIENT_BALANCE
                          : ErrorCode::PHONE_NUMBER_NOT_OWNED;
    return outcome;
  }
  for (db::BatchMessage& message : accepted.messages) {
    outcome.messaged.emplace(
        message.to_number, ReachedMessage{std::move(message.message_id), std::move(message.status),
                                          std::move(message.error_code)});
  }
  tx.commit();
  services.relay.notify();
  return outcome;
}

}  // namespace

nlohmann::json broadcastToGroup(const SendServices& services, const Caller& caller,
                                const BroadcastRequest& request) {
  int parts = checkBody(request.body).parts;
  const TimePoint now = services.clock.now();
  auto checked = check(services, caller, request, parts, now);
  if (auto* stored = std::get_if<nlohmann::json>(&checked)) return std::move(*stored);
  Plan& plan = std::get<Plan>(checked);

  std::map<std::string, ReachedMessage> messaged;
  std::optional<ErrorCode> stopped;  // a batch refused: the members after it are not messaged
  size_t batch = static_cast<size_t>(std::max(1, services.policy.broadcast_batch_size));
  for (size_t begin = 0; begin < plan.to_message.size() && !stopped; begin += batch) {
    size_t end = std::min(plan.to_message.size(), begin + batch);
    BatchOutcome outcome = acceptBatch(services, caller, request, plan, begin, end, now);
    stopped = outcome.refusal;
    messaged.merge(outcome.messaged);
  }

  nlohmann::json results = nlohmann::json::array();
  int failed = 0;
  for (size_t i = 0; i < plan.members.size(); ++i) {
    const MemberStanding& member = plan.members[i];
    nlohmann::json line;
    if (member.reached) {
      line = messageResult(member.to, *member.reached);
    } else if (auto it = messaged.find(member.to); it != messaged.end()) {
      line = messageResult(member.to, it->second);
    } else {
      ErrorCode why = plan.decisions[i].refusal.value_or(stopped.value_or(ErrorCode::CONFLICT));
      line = result(member.to, "failed", std::nullopt, std::string(errorInfo(why).name));
    }
    if (line["status"] == "failed" || line["status"] == "undelivered") ++failed;
    results.push_back(std::move(line));
  }
  nlohmann::json answer = {{"id", plan.broadcast_id},
                           {"group_id", request.group_id},
                           {"sent_to", static_cast<int>(results.size()) - failed},
                           {"failed", failed},
                           {"results", std::move(results)}};
  std::string stored = answer.dump(), at = formatIso(now);
  db::Session sql(services.db);
  *sql << "UPDATE broadcasts SET response = :r::jsonb, answered_at = :now::timestamptz "
          "WHERE id = :id",
      soci::use(stored), soci::use(at), soci::use(plan.broadcast_id);
  return answer;
}

}  // namespace smsgw::sending
