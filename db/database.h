#pragma once
// The SOCI connection pool every process shares. Lease a session with
// `soci::session sql(db.pool());`; it returns to the pool when it goes out of scope.
// Thread-safe.

#include <soci/connection-pool.h>
#include <soci/session.h>

#include <mutex>
#include <string>
#include <unordered_map>

namespace smsgw::db {

class Database {
 public:
  Database(const std::string& conninfo, size_t pool_size);
  soci::connection_pool& pool() { return pool_; }
  // For a connection a component must hold on its own (e.g. one that owns a session lock).
  const std::string& conninfo() const { return conninfo_; }

  // Which request each pooled connection last worked for (the smsgw.request_id setting the
  // outbox stamps on the rows SQL functions write, migration 0017); Session keeps it in step
  // with RequestScope. True when `connection` must be told `request_id`.
  bool needsRequestId(const void* connection, const std::string& request_id);
  // Off for a process whose requests never reach those SQL functions (the webhook dispatcher):
  // its sessions then cost no statement to tell. Rows written from C++ (db::enqueueOutbox, a
  // webhook attempt) carry the request id themselves either way.
  void tellConnectionsTheRequest(bool tell) { tell_request_ids_ = tell; }

 private:
  soci::connection_pool pool_;
  std::string conninfo_;
  std::mutex request_ids_mutex_;
  std::unordered_map<const void*, std::string> request_ids_;
  bool tell_request_ids_ = true;
};

// How a session's SQL functions learn the request id they stamp on outbox rows: from the
// connection's setting (one statement whenever the request changes), or as an argument the
// caller passes (p_request_id, migration 0019) on the hot path, where that statement was a
// fifth of all (ops/bench/RESULTS.md). A session that passes it runs only such calls.
enum class RequestIdUse { Setting, Arguments };

// A leased session whose connection is re-established if PostgreSQL dropped it, and which
// works for the calling thread's request (adapters/log.h RequestScope): the outbox rows it
// writes carry that request's id to Kafka.
class Session {
 public:
  explicit Session(Database& db, RequestIdUse use = RequestIdUse::Setting);
  soci::session& operator*() { return session_; }
  soci::session* operator->() { return &session_; }

 private:
  soci::session session_;
};

// Whether the database answers a trivial query now (health checks); never throws.
bool answers(Database& db);

}  // namespace smsgw::db
