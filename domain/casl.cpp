#include "domain/casl.h"

#include <array>
#include <cctype>

#include "domain/display_name.h"
#include "domain/text_cut.h"

namespace smsgw {
namespace {

// Uppercases ASCII and the Latin-1 letters French uses (é → É), leaving other bytes as they are.
std::string upper(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size(); ++i) {
    auto c = static_cast<unsigned char>(text[i]);
    if (c == 0xC3 && i + 1 < text.size()) {  // U+00C0..U+00FF
      auto next = static_cast<unsigned char>(text[i + 1]);
      if (next >= 0xA0 && next <= 0xBE && next != 0xB7) next -= 0x20;  // à..þ, not ÷
      out.push_back(static_cast<char>(c));
      out.push_back(static_cast<char>(next));
      ++i;
    } else {
      out.push_back(static_cast<char>(std::toupper(c)));
    }
  }
  return out;
}

// The letters of an uppercased word with French accents folded (ARRÊT → ARRET) and every
// other character (punctuation, emoji) dropped.
std::string foldWord(std::string_view word) {
  std::string out;
  for (size_t i = 0; i < word.size(); ++i) {
    auto c = static_cast<unsigned char>(word[i]);
    if (std::isalnum(c)) {
      out.push_back(static_cast<char>(c));
    } else if (c == 0xC3 && i + 1 < word.size()) {
      auto next = static_cast<unsigned char>(word[++i]);
      if (next >= 0x80 && next <= 0x85)
        out.push_back('A');  // À Á Â Ã Ä Å
      else if (next == 0x87)
        out.push_back('C');  // Ç
      else if (next >= 0x88 && next <= 0x8B)
        out.push_back('E');  // È É Ê Ë
      else if (next >= 0x8C && next <= 0x8F)
        out.push_back('I');  // Ì Í Î Ï
      else if (next >= 0x92 && next <= 0x96)
        out.push_back('O');  // Ò Ó Ô Õ Ö
      else if (next >= 0x99 && next <= 0x9C)
        out.push_back('U');  // Ù Ú Û Ü
    }
  }
  return out;
}

bool isSpace(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

// The name that opens a text we send for an account, cut by characters (never inside one: a
// byte cut made invalid UTF-8 that PostgreSQL refused, issue 49) and without trailing spaces.
std::string signature(std::string_view brand) {
  std::string name = cutToCharacters(brand, kSignatureCharacters);
  while (!name.empty() && isSpace(name.back())) name.pop_back();
  return name;
}

// `text` opened by the signature, "Érable Inc.: …" ("Érable Inc. : …" in French typography), or
// alone when there is none.
std::string signedText(std::string_view brand, bool french, std::string_view text) {
  std::string name = signature(brand);
  if (name.empty()) return std::string(text);
  return name.append(french ? " : " : ": ").append(text);
}

struct KeywordWord {
  std::string_view word;
  Keyword keyword;
  bool french;
};

constexpr std::array kKeywords = {
    KeywordWord{"STOP", Keyword::Stop, false},        KeywordWord{"STOPALL", Keyword::Stop, false},
    KeywordWord{"UNSUBSCRIBE", Keyword::Stop, false}, KeywordWord{"CANCEL", Keyword::Stop, false},
    KeywordWord{"END", Keyword::Stop, false},         KeywordWord{"QUIT", Keyword::Stop, false},
    KeywordWord{"ARRET", Keyword::Stop, true},        KeywordWord{"START", Keyword::Start, false},
    KeywordWord{"UNSTOP", Keyword::Start, false},     KeywordWord{"HELP", Keyword::Help, false},
    KeywordWord{"INFO", Keyword::Help, false},        KeywordWord{"AIDE", Keyword::Help, true},
    KeywordWord{"YES", Keyword::Yes, false},          KeywordWord{"OUI", Keyword::Yes, true},
};

}  // namespace

KeywordReply readKeyword(std::string_view text) {
  size_t begin = 0, end = text.size();
  while (begin < end && isSpace(text[begin])) ++begin;
  while (end > begin && isSpace(text[end - 1])) --end;
  KeywordReply reply;
  reply.whole_reply = upper(text.substr(begin, end - begin));
  size_t word_end = begin;
  while (word_end < end && !isSpace(text[word_end])) ++word_end;
  std::string word = foldWord(upper(text.substr(begin, word_end - begin)));
  for (const auto& candidate : kKeywords) {
    if (word == candidate.word) {
      reply.keyword = candidate.keyword;
      reply.french = candidate.french;
      break;
    }
  }
  return reply;
}

std::string autoReplyText(const KeywordReply& reply, std::string_view brand) {
  switch (reply.keyword) {
    case Keyword::Stop:
      return reply.french ? signedText(brand, true,
                                       "Vous êtes désabonné et ne recevrez plus de messages de ce "
                                       "numéro. Répondez START pour vous réabonner.")
                          : signedText(brand, false,
                                       "You are unsubscribed and will receive no more messages "
                                       "from this number. Reply START to resubscribe.");
    case Keyword::Start:
      return signedText(brand, false,
                        "You are resubscribed. Reply STOP to unsubscribe, HELP for help. / Vous "
                        "êtes réabonné. Répondez ARRET pour vous désabonner.");
    case Keyword::Help:
      return reply.french ? signedText(brand, true,
                                       "Répondez ARRET pour vous désabonner. Des frais de "
                                       "messagerie et de données peuvent s'appliquer.")
                          : signedText(brand, false,
                                       "Reply STOP to unsubscribe. Message and data rates may "
                                       "apply.");
    case Keyword::Yes:
    case Keyword::None:
      break;
  }
  return "";
}

std::string optInRequestText(std::string_view brand, std::string_view language) {
  if (language == "fr") {
    return signedText(brand, true,
                      "Répondez OUI pour recevoir nos messages texte à ce numéro, ou ARRET pour "
                      "refuser. Des frais de messagerie peuvent s'appliquer.");
  }
  return signedText(brand, false,
                    "Reply YES to receive text messages from us at this number, or STOP to "
                    "decline. Message and data rates may apply.");
}

std::string textSignature(std::string_view account_name,
                          const std::optional<std::string>& sender_name) {
  if (sender_name && !sender_name->empty()) return *sender_name;
  return isBrandName(account_name) ? std::string(account_name) : std::string();
}

TimePoint impliedConsentExpiry(std::optional<TimePoint> expires_at,
                               std::optional<TimePoint> last_transaction, TimePoint granted_at) {
  if (expires_at) return *expires_at;
  return addMonthsClamped(last_transaction.value_or(granted_at), kImpliedConsentMonths);
}

}  // namespace smsgw
