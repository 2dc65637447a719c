/**
 * `npm run demo-token -- acme [--read-only]`: a session token for a demo organization of the
 * embedded sandbox, signed with SESSION_JWT_SECRET (HS256), valid for an hour. What a frontend's
 * own sign-in would hand the browser in session mode: never an API key.
 */
import { SignJWT } from "jose";

const [name = "acme", ...flags] = process.argv.slice(2);
const secret = process.env.SESSION_JWT_SECRET;
if (!secret || secret.length < 32) {
  console.error("SESSION_JWT_SECRET must be set (at least 32 characters), as for npm start");
  process.exit(1);
}
if (name !== "acme" && name !== "globex") {
  console.error("usage: npm run demo-token -- acme|globex [--read-only]");
  process.exit(1);
}
let token = new SignJWT({
  org: `org_${name}`,
  ...(flags.includes("--read-only") ? { readOnly: true } : {}),
})
  .setProtectedHeader({ alg: "HS256" })
  .setSubject(`demo-${name}`)
  .setIssuedAt()
  .setExpirationTime("1h");
if (process.env.SESSION_ISSUER) token = token.setIssuer(process.env.SESSION_ISSUER);
if (process.env.SESSION_AUDIENCE) token = token.setAudience(process.env.SESSION_AUDIENCE);
console.log(await token.sign(new TextEncoder().encode(secret)));
