import http from 'node:http';
import type { AddressInfo } from 'node:net';
import dgram from 'node:dgram';
import Provider from 'oidc-provider';
import * as dnsPacket from 'dns-packet';
import zlib from 'node:zlib';
import { SignedXml } from 'xml-crypto';

/**
 * Test parts of enterprise sign-in (issue 51): a REAL OpenID provider (the `oidc-provider`
 * package, on loopback: discovery, the authorization code flow, PKCE required, a groups claim)
 * whose login step signs in the account named by the request's `login_hint` (the e-mail) — no
 * form to fill; and a tiny DNS server on a loopback UDP port answering TXT questions from a table.
 */

export interface IdpAccount {
  sub: string;
  email: string;
  name: string;
  groups: string[];
}

export interface TestIdp {
  issuer: string;
  clientId: string;
  clientSecret: string;
  accounts: Map<string, IdpAccount>;
  /** Follows the provider's redirects from the portal's authorization URL to the portal's redirect (its full URL). */
  signIn(authorizeUrl: string): Promise<string>;
  close(): Promise<void>;
}

export async function startIdp(redirectUris: string[], opts: { clientId?: string; clientSecret?: string } = {}): Promise<TestIdp> {
  const accounts = new Map<string, IdpAccount>();
  const clientId = opts.clientId ?? 'portal-test';
  const clientSecret = opts.clientSecret ?? 'portal-test-secret-0123456789abcdef';
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const issuer = `http://127.0.0.1:${port}`;
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: redirectUris,
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_post',
      },
    ],
    pkce: { required: () => true },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name', 'groups'] },
    conformIdTokenClaims: false,
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    cookies: { keys: ['sso-test-cookie-key'] },
    findAccount: async (_ctx, id) => {
      const a = [...accounts.values()].find((x) => x.sub === id);
      if (!a) return undefined;
      return { accountId: id, claims: async () => ({ sub: a.sub, email: a.email, email_verified: true, name: a.name, groups: a.groups }) };
    },
  });
  const callback = provider.callback();
  server.on('request', (req, res) => {
    const m = /^\/interaction\/([^/?]+)/.exec(req.url ?? '');
    if (!m) return callback(req, res);
    void (async () => {
      try {
        const details = await provider.interactionDetails(req, res);
        const hint = String(details.params.login_hint ?? '').toLowerCase();
        const a = accounts.get(hint);
        if (!a) {
          await provider.interactionFinished(req, res, { error: 'access_denied', error_description: 'unknown account' }, { mergeWithLastSubmission: false });
          return;
        }
        const grant = new provider.Grant({ accountId: a.sub, clientId: String(details.params.client_id) });
        grant.addOIDCScope(String(details.params.scope));
        const grantId = await grant.save();
        await provider.interactionFinished(req, res, { login: { accountId: a.sub }, consent: { grantId } }, { mergeWithLastSubmission: false });
      } catch (err) {
        res.statusCode = 500;
        res.end(String(err));
      }
    })();
  });

  async function signIn(authorizeUrl: string): Promise<string> {
    const jar = new Map<string, string>();
    let url = authorizeUrl;
    for (let i = 0; i < 10; i++) {
      if (!url.startsWith(issuer)) return url;
      const res = await fetch(url, { redirect: 'manual', headers: { cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; ') } });
      for (const c of res.headers.getSetCookie()) {
        const [kv] = c.split(';');
        const [k, ...v] = kv.split('=');
        jar.set(k.trim(), v.join('='));
      }
      const loc = res.headers.get('location');
      if (!loc) throw new Error(`the provider answered ${res.status} without a redirect: ${(await res.text()).slice(0, 300)}`);
      url = new URL(loc, url).href;
    }
    throw new Error('too many redirects');
  }

  return {
    issuer,
    clientId,
    clientSecret,
    accounts,
    signIn,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A DNS server on 127.0.0.1 answering TXT questions from `records` (name → values); others: NXDOMAIN. */
export async function startDns(port = 0): Promise<{ server: string; records: Map<string, string[]>; close(): Promise<void> }> {
  const records = new Map<string, string[]>();
  const sock = dgram.createSocket('udp4');
  sock.on('message', (msg, rinfo) => {
    let q: dnsPacket.Packet;
    try {
      q = dnsPacket.decode(msg);
    } catch {
      return;
    }
    const question = q.questions?.[0];
    const values = question ? records.get(question.name.toLowerCase()) : undefined;
    const answers = question && values && question.type === 'TXT' ? values.map((v) => ({ type: 'TXT' as const, name: question.name, ttl: 60, class: 'IN' as const, data: v })) : [];
    const out = dnsPacket.encode({
      id: q.id,
      type: 'response',
      flags: dnsPacket.RECURSION_DESIRED | dnsPacket.RECURSION_AVAILABLE | (values ? 0 : 3), // rcode 3: NXDOMAIN
      questions: q.questions,
      answers,
    });
    sock.send(out, rinfo.port, rinfo.address);
  });
  await new Promise<void>((resolve) => sock.bind(port, '127.0.0.1', resolve));
  const bound = sock.address().port;
  return { server: `127.0.0.1:${bound}`, records, close: () => new Promise<void>((resolve) => sock.close(() => resolve())) };
}

// ---- the SAML IdP side (signed with xml-crypto and a test key pair made for these tests only) ----

export const TEST_IDP_KEY = `-----BEGIN PRIVATE KEY-----
MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQDJCXeV4IcHO56j
JVR1MNfLy8BvghM2OVEE26v4Jtp337eFupAX+oqUn+QFGk2pILBdhHAC60CjGH8f
AKlK0DUQz4odcsBb/KXdK5Oq7DLq3yd7O8VV56zLApgLfdR2ATSGImzp67dm7gBr
DMhd+nZWz6OE4EGp3769uC6bZQvimKCHmA4Fo/unT4Z6L41484eHxFCqp85Lg/ri
atJPTdq5QFfR8NslnhvjqZtpvA4xNpkoNM7a0P9dFk3unEN7KbcgEqsExLT1r9/j
9WmSVI4yP5mA2XS9CkKGGFHwXbfbvTvr7vMQUI8rcdlhuDGZEuGyWkJmlgWlVnoD
pXSOiv+PAgMBAAECggEAFIhUf+jCMcFrluMZqKx35dcmDN1+o9OfzDy5aCtjtcmS
H2TqEaDjpYFdEw5YLzVo/ewoWov3epDmbt6s67ivKsvfodlV/y8jK58nQlZEbwui
pyn4Iil60vMtX0MXP4Qo/qgmco/CGA+n2EciccLCcmRboZcb7cMt4oecrv9XgumA
Z+yhJQJTbxTBx0FrFfcq+MqLbCsYCTHie1fYHyITqHAQVX2snSSWPPWedOeNjLZE
3HND+vHthWsYvXEl3L+g5TxWc0GFYNGUrW0i5ZViW4gMV05goqGe9IBx5W5sifEN
ZfyO2lFOy9LlTnHoP6CrJpUXyfmA/Q6YLgP9u+1qdQKBgQDlS8jrqyzC1oAooH0p
JPrQWnENmytl7kmLG2DycPpCT327nsd3OR9vbbsaP2myFDVuJiesoZ4pnRXMlUym
Y8U2nY4UlBrXes6sVEVUBohgOVAngqYtJnZeJJoMIUdY73cs5ISTNKat/o6sB+gt
HB3wLo7nEh4Mqqfg+PNmxMF97QKBgQDgcys/R/52UaJztSBHZjluJdQRBsjL3o9z
a9j1iSUdgkR22bkTpv56OQLay0enFaYthhwvqKuUPYpH2C1t3IhBrT+81ebmlrSM
nfENRsp62adWU9gQpbuDAG23TxDJuu7JjbL4u3kwIRmsPPxp7zhXaW76czn1P3bi
JRkPYOkj6wKBgFU9TgzmDnbD3NK9jqm7+I16AasIMyLqaWaQIAMgorgB6wDTbt1Q
W/JFfZetWTJ9Nrui7X7MegqIPfFW0y7LyiWafpYB1NSj7666iSdKYmo7BCQb+oCw
WrJ2stmtiWNzaf9DWFGM8iWeixVCvzn9yNdfx3n5DziwPEZy5bEflbqlAoGAIcSy
CP9H5X06t7XUeWmD0nKWiUlABIwjgPYE2kwb7Wif7FGtaquBNdpF960FxrmXGtpG
e1UhG1h26YA4tYKsbVUndb2o06Bw4YcRsTGpXPpKFs7efwKwR3FVEHMwz2j0bBaJ
iqqJ/Re9yRAT2cxH6b7PF5cmbSNzO2rhblLiQKkCgYEAvI3SUSRGnxK56EUt0RWx
H8o4nx4k2VYaMU9ALwIkplYEEaKDnSKjhV2xvYWoBeImu7Vp5CMS/wvanAPgHl9a
QWm/TugAObzLp8KUkEV+ezud0r7tkFSkvb7ytPgEht87curNlY7TQqEItntpuUCl
aLAOQidmVDxgQWshYPeDDmI=
-----END PRIVATE KEY-----`;
export const TEST_IDP_CERT = `-----BEGIN CERTIFICATE-----
MIIDITCCAgmgAwIBAgIUbqzdv2rp4AiSW3A3Y2YzOxJtxNYwDQYJKoZIhvcNAQEL
BQAwHzEdMBsGA1UEAwwUUG9ydGFsIHRlc3QgU0FNTCBJZFAwIBcNMjYxMjAyMTky
MTUyWhgPMjEyNjExMDgxOTIxNTJaMB8xHTAbBgNVBAMMFFBvcnRhbCB0ZXN0IFNB
TUwgSWRQMIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAyQl3leCHBzue
oyVUdTDXy8vAb4ITNjlRBNur+Cbad9+3hbqQF/qKlJ/kBRpNqSCwXYRwAutAoxh/
HwCpStA1EM+KHXLAW/yl3SuTquwy6t8nezvFVeesywKYC33UdgE0hiJs6eu3Zu4A
awzIXfp2Vs+jhOBBqd++vbgum2UL4pigh5gOBaP7p0+Gei+NePOHh8RQqqfOS4P6
4mrST03auUBX0fDbJZ4b46mbabwOMTaZKDTO2tD/XRZN7pxDeym3IBKrBMS09a/f
4/VpklSOMj+ZgNl0vQpChhhR8F2327076+7zEFCPK3HZYbgxmRLhslpCZpYFpVZ6
A6V0jor/jwIDAQABo1MwUTAdBgNVHQ4EFgQUyasw9a9uK96culBS3GHzh6C+Gt0w
HwYDVR0jBBgwFoAUyasw9a9uK96culBS3GHzh6C+Gt0wDwYDVR0TAQH/BAUwAwEB
/zANBgkqhkiG9w0BAQsFAAOCAQEAJH+FBsuSuYmmhl6SsY4S84UoILkpifSBQ+vS
bygHIpYA9boqWlyh244cgHHkpvJWpNn1qcLOV2u/+RpoLixe7P8HlNUt+de/QGjh
Wky6oU2Esx/e5j64FnS4flRKw4Jr5Ivka4LukG2RktO53YFqEZeroS/5K+ujEliy
Kpj10O1c5IgbCkqEWwp0dd4NXe88U+21uL68a1gstpI0BCmtr81slwNqwapK3ZQo
xM92LrUfEDpf8aOB+sHDmdGA7AKOrL3Z2b9GaLTZLZbfaA3Izkzx2pQjxo4bJvkg
wzOvfrm4GXizi54BmtaumsdgAQHDXXqTivSLXMNAUZB2k3GTQg==
-----END CERTIFICATE-----`;
const certBody = TEST_IDP_CERT.replace(/-----[^-]+-----/g, '').replace(/\s+/g, '');

/** IdP metadata as Entra ID / Okta / Keycloak publish it (entity id, HTTP-Redirect SSO URL, signing certificate). */
export const idpMetadata = (entityId: string, ssoUrl: string) => `<?xml version="1.0"?>
<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" entityID="${entityId}">
  <md:IDPSSODescriptor protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol" WantAuthnRequestsSigned="false">
    <md:KeyDescriptor use="signing"><ds:KeyInfo xmlns:ds="http://www.w3.org/2000/09/xmldsig#"><ds:X509Data><ds:X509Certificate>${certBody}</ds:X509Certificate></ds:X509Data></ds:KeyInfo></md:KeyDescriptor>
    <md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect" Location="${ssoUrl}"/>
    <md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST" Location="${ssoUrl}"/>
  </md:IDPSSODescriptor>
</md:EntityDescriptor>`;

/** The AuthnRequest ID and RelayState of the portal's HTTP-Redirect URL. */
export function authnRequestOf(url: string): { id: string; relayState: string; acs: string; issuer: string } {
  const u = new URL(url);
  const xml = zlib.inflateRawSync(Buffer.from(u.searchParams.get('SAMLRequest')!, 'base64')).toString('utf8');
  return {
    id: /\sID="([^"]+)"/.exec(xml)![1],
    relayState: u.searchParams.get('RelayState')!,
    acs: /AssertionConsumerServiceURL="([^"]+)"/.exec(xml)![1],
    issuer: /<(?:saml:)?Issuer[^>]*>([^<]+)</.exec(xml)![1],
  };
}

export interface AssertionInput {
  idpEntityId: string;
  inResponseTo: string;
  acs: string;
  audience: string;
  email: string;
  groups: string[];
  name?: string;
  /** Minutes from now the assertion stops being valid (negative: expired). */
  validMinutes?: number;
  assertionId?: string;
  /** How long ago the IdP authenticated the user (AuthnInstant), in ms; default 1 s. */
  authnAgoMs?: number;
}

const iso = (ms: number) => new Date(Date.now() + ms).toISOString();

export function assertionXml(a: AssertionInput, id = a.assertionId ?? `_a${Math.random().toString(16).slice(2)}`): string {
  const until = iso((a.validMinutes ?? 5) * 60_000);
  const attrs = [
    `<saml:Attribute Name="email"><saml:AttributeValue>${a.email}</saml:AttributeValue></saml:Attribute>`,
    `<saml:Attribute Name="name"><saml:AttributeValue>${a.name ?? a.email}</saml:AttributeValue></saml:Attribute>`,
    `<saml:Attribute Name="groups">${a.groups.map((g) => `<saml:AttributeValue>${g}</saml:AttributeValue>`).join('')}</saml:Attribute>`,
  ].join('');
  return `<saml:Assertion xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="${id}" Version="2.0" IssueInstant="${iso(-1000)}"><saml:Issuer>${a.idpEntityId}</saml:Issuer><saml:Subject><saml:NameID Format="urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress">${a.email}</saml:NameID><saml:SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:bearer"><saml:SubjectConfirmationData InResponseTo="${a.inResponseTo}" NotOnOrAfter="${until}" Recipient="${a.acs}"/></saml:SubjectConfirmation></saml:Subject><saml:Conditions NotBefore="${iso(-60_000)}" NotOnOrAfter="${until}"><saml:AudienceRestriction><saml:Audience>${a.audience}</saml:Audience></saml:AudienceRestriction></saml:Conditions><saml:AuthnStatement AuthnInstant="${iso(-(a.authnAgoMs ?? 1000))}" SessionIndex="_s1"><saml:AuthnContext><saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport</saml:AuthnContextClassRef></saml:AuthnContext></saml:AuthnStatement><saml:AttributeStatement>${attrs}</saml:AttributeStatement></saml:Assertion>`;
}

/** Signs the (first) Assertion of `xml` with the test key: enveloped, exclusive C14N, RSA-SHA256. */
export function signAssertion(xml: string, key = TEST_IDP_KEY, cert = TEST_IDP_CERT): string {
  const sig = new SignedXml({
    privateKey: key,
    publicCert: cert,
    signatureAlgorithm: 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
    canonicalizationAlgorithm: 'http://www.w3.org/2001/10/xml-exc-c14n#',
  });
  sig.addReference({
    xpath: "(//*[local-name(.)='Assertion'])[1]",
    transforms: ['http://www.w3.org/2000/09/xmldsig#enveloped-signature', 'http://www.w3.org/2001/10/xml-exc-c14n#'],
    digestAlgorithm: 'http://www.w3.org/2001/04/xmlenc#sha256',
  });
  sig.computeSignature(xml, { location: { reference: "(//*[local-name(.)='Assertion'])[1]/*[local-name(.)='Issuer']", action: 'after' } });
  return sig.getSignedXml();
}

/** A samlp:Response around the given assertion XML (signed or not). */
export const responseXml = (a: AssertionInput, assertion: string, extra = '') =>
  `<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="_r${Math.random().toString(16).slice(2)}" Version="2.0" IssueInstant="${iso(-1000)}" Destination="${a.acs}" InResponseTo="${a.inResponseTo}"><saml:Issuer>${a.idpEntityId}</saml:Issuer><samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Success"/></samlp:Status>${extra}${assertion}</samlp:Response>`;

export const b64 = (xml: string) => Buffer.from(xml, 'utf8').toString('base64');
