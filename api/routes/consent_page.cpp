#include "api/routes/consent_page.h"

#include <fmt/format.h>

#include <nlohmann/json.hpp>

namespace smsgw::api {
namespace {

std::string escaped(std::string_view text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&#39;";
        break;
      default:
        out.push_back(c);
    }
  }
  return out;
}

struct Words {
  const char* lang;
  const char* title;
  const char* asks;  // {client}
  const char* returns_to;
  const char* sign_in;
  const char* email;
  const char* password;
  const char* wrong;
  const char* mode;
  const char* test_mode;
  const char* live_mode;
  const char* may;
  const char* approve;
  const char* deny;
  const char* revoke_later;
  const char* unverified;
  const char* identified_by;
  const char* locked;  // {minutes}
};

constexpr Words kEnglish = {
    "en",
    "Connect an app to your SMS gateway account",
    "<strong>{}</strong> wants to use your SMS gateway account.",
    "After your answer you return to",
    "Sign in as the account owner",
    "Email",
    "Password",
    "That email and password do not match an account.",
    "Mode",
    "TEST: simulated texts only, never a real phone, free",
    "LIVE: real texts to real phones, each SMS part charged to your balance",
    "It may",
    "Approve",
    "Deny",
    "You can disconnect it at any time by revoking its key (API keys, oauth_grant).",
    "Unverified app: it registered itself, and its name is only what it says about itself. "
    "Approve it only if you started this connection from an app you trust.",
    "This app is identified by the address of its description:",
    "Too many wrong passwords for this account. Try again in {} min.",
};

constexpr Words kFrench = {
    "fr",
    "Connecter une application à votre compte de passerelle SMS",
    "<strong>{}</strong> souhaite utiliser votre compte de passerelle SMS.",
    "Après votre réponse, vous reviendrez à",
    "Connectez-vous en tant que titulaire du compte",
    "Courriel",
    "Mot de passe",
    "Ce courriel et ce mot de passe ne correspondent à aucun compte.",
    "Mode",
    "TEST : textos simulés seulement, jamais vers un vrai téléphone, gratuit",
    "LIVE : vrais textos vers de vrais téléphones, chaque partie de SMS débitée de votre solde",
    "Elle pourra",
    "Approuver",
    "Refuser",
    "Vous pourrez la déconnecter en tout temps en révoquant sa clé (clés d'API, oauth_grant).",
    "Application non vérifiée : elle s'est inscrite elle-même, et son nom n'est que ce qu'elle "
    "dit d'elle-même. Approuvez-la seulement si vous avez lancé cette connexion depuis une "
    "application de confiance.",
    "Cette application est identifiée par l'adresse de sa description :",
    "Trop de mots de passe erronés pour ce compte. Réessayez dans {} min.",
};

const char* letterWords(char letter, Language language) {
  bool fr = language == Language::French;
  switch (letter) {
    case 'r':
      return fr ? "lire" : "read";
    case 'w':
      return fr ? "créer" : "create";
    case 'm':
      return fr ? "modifier" : "change";
    default:
      return fr ? "supprimer" : "delete";
  }
}

// One checkbox per resource the client asked for, ticked: the owner may untick any.
std::string permissionRows(const Permissions& requested, Language language) {
  std::string rows;
  const nlohmann::json letters_of = requested.toJson();  // items() must not outlive it
  for (const auto& [resource, letters_json] : letters_of.items()) {
    std::string letters = letters_json, what;
    for (char letter : letters)
      what += (what.empty() ? "" : ", ") + std::string(letterWords(letter, language));
    rows += fmt::format(
        "<li><label><input type=\"checkbox\" name=\"perm_{0}\" value=\"{1}\" checked> "
        "<code>{0}</code>: {2}</label></li>\n",
        escaped(resource), escaped(letters), what);
  }
  return rows;
}

std::string hiddenFields(const std::map<std::string, std::string>& request,
                         const std::string& csrf_token) {
  std::string fields;
  for (const auto& [name, value] : request)
    fields += fmt::format("<input type=\"hidden\" name=\"{}\" value=\"{}\">\n", escaped(name),
                          escaped(value));
  fields += fmt::format("<input type=\"hidden\" name=\"csrf_token\" value=\"{}\">\n",
                        escaped(csrf_token));
  return fields;
}

constexpr const char* kStyle =
    "body{font-family:system-ui,sans-serif;max-width:34rem;margin:2rem auto;padding:0 1rem;"
    "color:#1b1b1b}h1{font-size:1.3rem}fieldset{border:1px solid #ccc;margin:1rem 0}"
    "label{display:block;margin:.3rem "
    "0}input[type=email],input[type=password]{width:100%;box-sizing:border-box;"
    "padding:.4rem}.problem{color:#a00;font-weight:bold}.uri{word-break:break-all}"
    "button{padding:.5rem 1.2rem;margin-right:.5rem}";

std::string document(const Words& words, const std::string& body) {
  return fmt::format(
      "<!DOCTYPE html>\n<html lang=\"{}\"><head><meta charset=\"utf-8\">"
      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
      "<title>{}</title><style>{}</style></head><body>\n<h1>{}</h1>\n{}</body></html>\n",
      words.lang, words.title, kStyle, words.title, body);
}

}  // namespace

std::string renderConsentPage(const ConsentPage& page, Language language) {
  const Words& words = language == Language::French ? kFrench : kEnglish;
  std::string body;
  body += "<p>" + fmt::format(fmt::runtime(words.asks), escaped(page.client_name)) + "</p>\n";
  if (page.self_registered)
    body += fmt::format("<p class=\"problem\" id=\"unverified\">{}</p>\n", words.unverified);
  else
    body += fmt::format("<p>{} <span class=\"uri\">{}</span></p>\n", words.identified_by,
                        escaped(page.client_id));
  body += fmt::format("<p>{} <span class=\"uri\">{}</span></p>\n", words.returns_to,
                      escaped(page.redirect_uri));
  if (page.locked_for_minutes)
    body += fmt::format("<p class=\"problem\" role=\"alert\">{}</p>\n",
                        fmt::format(fmt::runtime(words.locked), *page.locked_for_minutes));
  else if (page.wrong_credentials)
    body += fmt::format("<p class=\"problem\" role=\"alert\">{}</p>\n", words.wrong);
  body += "<form method=\"post\" action=\"/oauth/authorize\">\n";
  body += hiddenFields(page.request, page.csrf_token);
  body += fmt::format(
      "<fieldset><legend>{}</legend>"
      "<label>{} <input type=\"email\" name=\"email\" value=\"{}\" autocomplete=\"username\" "
      "required></label>"
      "<label>{} <input type=\"password\" name=\"password\" autocomplete=\"current-password\" "
      "required></label></fieldset>\n",
      words.sign_in, words.email, escaped(page.email), words.password);
  body += fmt::format(
      "<fieldset><legend>{}</legend>"
      "<label><input type=\"radio\" name=\"mode\" value=\"TEST\" checked> {}</label>"
      "<label><input type=\"radio\" name=\"mode\" value=\"LIVE\"> {}</label></fieldset>\n",
      words.mode, words.test_mode, words.live_mode);
  body += fmt::format("<fieldset><legend>{}</legend><ul>\n{}</ul></fieldset>\n", words.may,
                      permissionRows(page.requested, language));
  body += fmt::format(
      "<p><button type=\"submit\" name=\"decision\" value=\"approve\">{}</button>"
      "<button type=\"submit\" name=\"decision\" value=\"deny\" formnovalidate>{}</button></p>\n"
      "</form>\n<p><small>{}</small></p>\n",
      words.approve, words.deny, words.revoke_later);
  return document(words, body);
}

std::string renderRefusalPage(std::string_view problem_en, std::string_view problem_fr,
                              Language language) {
  const Words& words = language == Language::French ? kFrench : kEnglish;
  std::string_view problem = language == Language::French ? problem_fr : problem_en;
  return document(words, "<p class=\"problem\" role=\"alert\">" + escaped(problem) + "</p>\n");
}

}  // namespace smsgw::api
