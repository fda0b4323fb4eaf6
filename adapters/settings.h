#pragma once
// Settings several processes share, registered on a process's ProcessSettings: the database,
// the Kafka bootstrap, the carrier and the send policy. Each names its variables and keeps the
// defaults its struct gives.

#include <map>
#include <string>

#include "adapters/http_carrier_client.h"
#include "adapters/process_settings.h"
#include "domain/send_policy.h"

namespace smsgw {

// DATABASE_URL.
void addDatabaseSettings(ProcessSettings& settings, std::string& database_url);
// DATABASE_URL and DB_PREPARED_STATEMENTS (db/prepared_statement.h: off behind a pooler in
// transaction mode, which cannot keep a connection's prepared statements).
void addDatabaseSettings(ProcessSettings& settings, std::string& database_url,
                         bool& prepared_statements);

// MAIL_DROP_DIR: the folder the embedded mailer writes each email to (adapters/mailer.h).
void addMailerSettings(ProcessSettings& settings, std::string& drop_dir);

struct KafkaSettings {
  std::string brokers;         // KAFKA_BROKERS, or the first line of KAFKA_BOOTSTRAP_FILE
  std::string bootstrap_file;  // written by the embedded broker (ops/broker)
  // Any other KAFKA_* variable, as the librdkafka setting it names (kafkaPassthrough).
  std::map<std::string, std::string> properties;
};
// KAFKA_BROKERS, KAFKA_BOOTSTRAP_FILE; one of them must give the bootstrap list. Every other
// KAFKA_* variable of the environment passes through to librdkafka (SASL, TLS for a managed
// Kafka, without a code change).
// `required` false: a process that needs Kafka for some commands only (smsgw-admin) starts
// without it, with empty brokers.
void addKafkaSettings(ProcessSettings& settings, KafkaSettings& kafka, bool required = true);

// The librdkafka settings the environment's KAFKA_* variables name, Confluent's images'
// convention: the rest of the name lower-cased, `_` for `.`, `__` for `_`, `___` for `-`
// (KAFKA_SASL_MECHANISMS=PLAIN gives sasl.mechanisms=PLAIN). The variables the processes read
// themselves (KAFKA_BROKERS, KAFKA_BOOTSTRAP_FILE, KAFKA_GROUP_PREFIX, ...) are left out.
std::map<std::string, std::string> kafkaPassthrough(const char* const* environment);

// CARRIER_BASE_URL, CARRIER_API_KEY (a secret: the simulator's key on a local stack only),
// CARRIER_TIMEOUT_MS.
void addCarrierSettings(ProcessSettings& settings, CarrierClientConfig& carrier);

// The send limits, pacing, caches, retention and protection thresholds (domain/send_policy.h).
void addSendPolicySettings(ProcessSettings& settings, SendPolicy& policy);
// VERIFICATION_CODE_SECRET: the key of verification codes' HMAC and of the seal that carries a
// LIVE code's text to the sender (the API and the sender read it).
void addVerificationCodeSecret(ProcessSettings& settings, std::string& secret);

}  // namespace smsgw
