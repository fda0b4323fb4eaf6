#include "domain/owner_emails.h"

#include <fmt/format.h>

namespace smsgw {
namespace {

constexpr std::string_view kSubjectPrefix = "[SMS gateway] ";

EmailText bilingual(std::string_view subject_en, std::string_view subject_fr,
                    const std::string& body_en, const std::string& body_fr) {
  return {fmt::format("{}{} / {}", kSubjectPrefix, subject_en, subject_fr),
          fmt::format("{}\n\n---\n\n{}\n", body_en, body_fr)};
}

}  // namespace

std::string ownerLink(std::string_view public_base_url, std::string_view page,
                      std::string_view token) {
  return fmt::format("{}/dashboard/#/{}/{}", public_base_url, page, token);
}

EmailText passwordResetEmail(std::string_view link) {
  return bilingual(
      "Reset your password", "Réinitialisez votre mot de passe",
      fmt::format("Someone asked to reset the password of this account. To choose a new one, "
                  "open this link within {} minutes (it works once):\n\n{}\n\nIf it was not you, "
                  "ignore this email: nothing changes.",
                  kPasswordResetLinkLife.count(), link),
      fmt::format("Quelqu'un a demandé à réinitialiser le mot de passe de ce compte. Pour en "
                  "choisir un nouveau, ouvrez ce lien dans les {} minutes (il ne sert qu'une "
                  "fois) :\n\n{}\n\nSi ce n'était pas vous, ignorez ce courriel : rien ne change.",
                  kPasswordResetLinkLife.count(), link));
}

EmailText unlockEmail(std::string_view link) {
  return bilingual(
      "Sign in despite the lock", "Connectez-vous malgré le verrou",
      fmt::format("Wrong passwords locked sign-in to this account. Open this link within {} "
                  "minutes in the browser you sign in with (it works once): that browser can "
                  "then sign in with the right password whatever others try.\n\n{}\n\nIf you "
                  "did not ask for it, someone may be guessing your password: keep it long and "
                  "unique.",
                  kUnlockLinkLife.count(), link),
      fmt::format("Des mots de passe erronés ont verrouillé la connexion à ce compte. Ouvrez ce "
                  "lien dans les {} minutes avec le navigateur qui vous sert à vous connecter "
                  "(il ne sert qu'une fois) : ce navigateur pourra ensuite se connecter avec le "
                  "bon mot de passe, quoi que d'autres tentent.\n\n{}\n\nSi vous ne l'avez pas "
                  "demandé, quelqu'un essaie peut-être de deviner votre mot de passe : gardez-le "
                  "long et unique.",
                  kUnlockLinkLife.count(), link));
}

EmailText emailChangeProofEmail(std::string_view new_email, std::string_view link) {
  return bilingual(
      "Confirm your new sign-in email", "Confirmez votre nouvelle adresse de connexion",
      fmt::format("To make {} the sign-in email of your account, open this link within {} "
                  "hours (it works once):\n\n{}\n\nIf you did not ask for it, ignore this email.",
                  new_email, kEmailChangeLinkLife.count(), link),
      fmt::format("Pour faire de {} l'adresse de connexion de votre compte, ouvrez ce lien dans "
                  "les {} heures (il ne sert qu'une fois) :\n\n{}\n\nSi vous ne l'avez pas "
                  "demandé, ignorez ce courriel.",
                  new_email, kEmailChangeLinkLife.count(), link));
}

EmailText emailChangeAskedEmail(std::string_view new_email) {
  return bilingual(
      "A change of sign-in email was asked", "Un changement d'adresse de connexion est demandé",
      fmt::format("Someone signed in to your account asked to move its sign-in to {}. Nothing "
                  "changes unless that address confirms it. If it was not you, change your "
                  "password and sign out everywhere from the dashboard's Security page.",
                  new_email),
      fmt::format("Une personne connectée à votre compte a demandé d'en déplacer la connexion "
                  "vers {}. Rien ne change tant que cette adresse ne l'a pas confirmé. Si ce "
                  "n'était pas vous, changez votre mot de passe et déconnectez toutes les "
                  "sessions depuis la page Sécurité du tableau de bord.",
                  new_email));
}

EmailText emailChangedEmail(std::string_view new_email) {
  return bilingual(
      "Your sign-in email changed", "Votre adresse de connexion a changé",
      fmt::format("Your account now signs in with {}; this address no longer does. If it was "
                  "not you, write to support at once.",
                  new_email),
      fmt::format("Votre compte se connecte désormais avec {} ; cette adresse-ci ne sert plus. "
                  "Si ce n'était pas vous, écrivez sans attendre au soutien.",
                  new_email));
}

EmailText passwordChangedEmail() {
  return bilingual("Your password changed", "Votre mot de passe a changé",
                   "The password of your account changed, and every other session was signed "
                   "out. If it was not you, reset your password from the sign-in page at once.",
                   "Le mot de passe de votre compte a changé, et toutes les autres sessions ont "
                   "été déconnectées. Si ce n'était pas vous, réinitialisez votre mot de passe "
                   "depuis la page de connexion sans attendre.");
}

}  // namespace smsgw
