// Reads {secret, headers, body} as JSON on stdin and verifies the delivery with the Standard
// Webhooks reference library. Exits 0 when it verifies, 1 with the library's reason when not.
import { Webhook } from "standardwebhooks";

let input = "";
for await (const chunk of process.stdin) input += chunk;
const { secret, headers, body } = JSON.parse(input);
try {
  new Webhook(secret).verify(body, headers);
  console.log("verified");
} catch (error) {
  console.log(`refused: ${error.message}`);
  process.exit(1);
}
