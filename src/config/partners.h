// Partner profiles: one XML file per partner in the partners directory.
//
//   <partner id="acme">
//     <name>ACME Supply</name>
//     <x12 qualifier="ZZ" id="ACMESUPPLY"/>          (repeatable)
//     <edifact id="5412345000013" qualifier="14"/>   (repeatable; qualifier optional)
//     <retention days="30" receipt-days="7"/>
//     <as2 id="ACMESUPPLY"/>                          (repeatable)
//     <as2 id="ACMESUPPLY" url="https://as2.acme.example/as2"
//          cipher="aes-256-cbc" key-transport="rsa" digest="sha-256" compress="false"/>
//                                                     (the one edihub sends to; rsa-oaep too)
//     <as4 party-id="acme" type="..." url="..."/>     (repeatable; one with a url, and on it
//          service="urn:edihub:edi" service-type="" action="acknowledgment" compress="false")
//     <sends-for partner="otherco"/>                 (repeatable: a VAN or hub sending
//                     interchanges whose sender id is otherco's; they are booked as otherco's,
//                     their acknowledgments come back to this partner)
//     <acknowledgments via="as2" x12="auto" ta1="on-error" contrl="requested" mdn="sync"/>
//                     (via as2, as4, dir (with dir="...") or none)
//     <documents webhook="https://erp.example/edi"/>  (or dir="PATH": booked documents as JSON;
//                     none="true": not this partner's; without it, the gateway's <documents>)
//     <certificate use="signing" file="certs/acme.crt"/>    (repeatable: rollover)
//     <certificate use="encryption" file="certs/acme.crt"/>
//     <security require-signature="true" require-encryption="true" allow-expired="false"/>
//     <security protocol="as4" require-signature="true" require-encryption="false"/>
//                     (AS4's own; without it AS4 follows the <security> above)
//     <mdn async-url-allow="https://as2.acme.example/mdn"/>  (repeatable: URL prefixes)
//     <mdn allow-md5="true"/>                          (md5 MDN signatures; refused by default)
//     <auth basic-user="acme" basic-password-hash="pbkdf2-sha256$..."/>  (HTTP Basic on every
//                     request; `edihub hash-password` makes the hash)
//     <auth allow-ip="192.0.2.0/24"/>                  (repeatable: addresses that may send)
//     <auth client-cert="certs/acme-client.crt"/>      (repeatable: rollover; mutual TLS, the
//                     partner's TLS client certificate pinned by its SHA-256; needs <tls> on
//                     the listener, a plain-HTTP request is refused)
//     <peppol seat="POP000123"/>   (repeatable; seat="*": every sending access point without a
//                     profile of its own. A Peppol access point: its AS4 messages are signed
//                     and encrypted, its certificate chains to the gateway's <peppol><ap-ca>
//                     and its CN is the seat id in eb:From; its documents are Standard
//                     Business Documents, booked under their sending participant)
//   </partner>
// Certificate paths are relative to the partner file's directory.
#pragma once

#include <pugixml.hpp>

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <utility>
#include <string>
#include <vector>

#include "parsers/edi/interchange.h"
#include "src/common/status.h"
#include "src/documents/definition.h"

namespace edihub::config {

struct Partner {
  std::string id;
  std::string name;
  std::vector<edi::Party> x12_ids;      // qualifier + id (ISA05/06)
  std::vector<edi::Party> edifact_ids;  // id + qualifier (UNB 0004/0007); empty qualifier matches any
  // <sends-for partner>: the partners whose interchanges this one may send
  // (a VAN, a hub). Without it a partner sends only under its own ids.
  std::vector<std::string> sends_for;
  std::string file;  // where it was read from

  // <retention days receipt-days>: settled keys are kept `days`; stored
  // receipts (MDNs, Receipts, acks) `receipt_days`, after which a later
  // duplicate gets a fresh receipt that says duplicate.
  struct Retention {
    int days = 30;
    int receipt_days = 7;
  } retention;

  // <security>: the certificates it signs with and we encrypt to, both protocols.
  struct Certificates {
    std::vector<std::string> signing;  // PEM files, resolved paths
    std::string encryption;            // PEM file, resolved path; may be empty
    bool allow_expired = false;        // <security allow-expired>: accept signatures by expired certificates
  } certificates;

  // <auth>: checked on the wire before anything is decrypted (identity/partner_auth.h).
  struct Auth {
    std::vector<std::string> allow_ips;           // CIDRs; empty: any address
    std::string basic_user, basic_password_hash;  // empty: no HTTP Basic
    // <auth client-cert>: the TLS client certificates the partner may present
    // (PEM files, resolved paths) and their SHA-256 fingerprints (lower-case hex
    // of the DER), in the same order; empty: no client certificate asked of it.
    std::vector<std::string> client_certificates;
    std::vector<std::string> client_cert_sha256;
  } auth;

  // AS2: what it sends us (<as2 id>, <security>, <mdn>) and how we send to it
  // (the <as2> with the url).
  struct As2 {
    std::vector<std::string> ids;
    bool require_signature = true;
    bool require_encryption = false;
    std::vector<std::string> async_mdn_prefixes;  // allowed Receipt-Delivery-Option URLs
    bool mdn_allow_md5 = false;                   // <mdn allow-md5="true"/>: md5 as MDN signing digest
    std::string url;                              // empty: no AS2 endpoint
    std::string send_id;                          // the AS2-To of what we send
    std::string cipher = "aes-256-cbc";           // <as2 cipher>: aes-{128,192,256}-cbc or des-ede3-cbc
    bool rsa_oaep = false;                        // <as2 key-transport="rsa-oaep">; default "rsa" (PKCS#1 v1.5)
    std::string digest = "sha-256";  // <as2 digest>: the signature's and the expected MIC's (sha-256|384|512)
    bool compress = false;           // <as2 compress="true">: compressed-data (RFC 5402) before signing
  } as2;

  // AS4: eb:From PartyId values (and types; an empty type matches any), the
  // WS-Security required of its messages (<security protocol="as4">, else
  // <security>), and how we send to it (<as4 party-id type url>).
  struct As4 {
    std::vector<std::pair<std::string, std::string>> parties;
    bool require_signature = true;
    bool require_encryption = false;
    std::string url;  // empty: no AS4 endpoint
    std::string send_party, send_party_type;
    // eb:CollaborationInfo of what we send (the partner's P-Mode names them).
    std::string service = "urn:edihub:edi", service_type, action = "acknowledgment";
    bool compress = false;  // <as4 compress="true">: gzip payloads (the AS4 compression feature)
    // <as4 sign="true" encrypt="true">: what we send is signed (our first
    // identity) and encrypted (to <certificate use="encryption">), and the
    // partner's Receipt must be signed by one of its signing certificates.
    bool sign = false, encrypt = false;
  } as4;

  // <peppol seat>: the Peppol sending access points this profile is for,
  // by seat id (their certificate's CN, eb:From PartyId of type
  // urn:fdc:peppol.eu:2017:identifiers:ap); "*" stands for any.
  struct Peppol {
    std::vector<std::string> seats;
    // <peppol seat="POP000123" mls-url="https://..." mls-certificate="certs/ap.pem"/>:
    // where that access point takes its Message Level Status and the
    // certificate to encrypt it to (Peppol finds both in the SMP; no SML is
    // reachable here). A seat without one gets no MLS: its refusals are
    // answered on the AS4 level instead.
    struct Mls {
      std::string url, certificate;  // certificate: a PEM file, resolved path
    };
    std::map<std::string, Mls> mls;  // by seat id
  } peppol;
  bool is_peppol() const { return !peppol.seats.empty(); }

  // <documents webhook="URL"/> or <documents dir="PATH"/>: every booked
  // document version (JSON) goes on to the back office that way.
  struct Documents {
    enum class Via { None, Webhook, Dir };
    Via via = Via::None;
    std::string target;  // the URL, or the resolved directory
  } documents;
  bool documents_set = false;  // the profile has <documents>; else the gateway's default applies

  // <acknowledgments via dir x12 ta1 contrl mdn>: which functional
  // acknowledgments go back, and how.
  struct Acknowledgments {
    enum class Via { As2, As4, Dir, None };
    enum class X12 { Auto, Ack997, Ack999, None };   // auto: 997 below 00501, 999 from it
    enum class Ta1 { Never, OnError, Requested };    // requested: when ISA14 asks (and on error)
    enum class Contrl { Requested, Always, Never };  // requested: when UNB 0031 asks
    enum class Mdn { Sync, Async };                  // the MDN we ask for on what we send
    // An APERAK for each EDIFACT message not booked for an application
    // reason (errors), and the CONTRL then speaks of syntax alone; never: the
    // CONTRL rejects such a message (UCM 4, 0085 18) and no APERAK is sent.
    enum class Aperak { Never, Errors };
    Via via = Via::None;
    std::string dir;  // for via="dir": a resolved path
    X12 x12 = X12::Auto;
    Ta1 ta1 = Ta1::OnError;
    Contrl contrl = Contrl::Always;
    Mdn mdn = Mdn::Sync;
    Aperak aperak = Aperak::Never;
  };
  Acknowledgments acknowledgments;
  // <validation policy="off|reject|accept|flag">: what happens to a message
  // that does not pass its definition (schema/definitions/; a message without
  // one is not checked). off, the default: nothing is checked. reject: the
  // interchange is rejected and nothing of it booked, and its 997/999 names
  // each error (AK3/AK4, AK5 R). accept: booked, and the 997/999 names each
  // error with AK5 E (accepted, errors noted). flag: booked and acknowledged
  // as accepted; the errors are in the message log's detail, for the operator.
  //
  // <guide message="810" file="guides/acme-810.def"/> inside it: the
  // partner's implementation guide for one message type, an overlay that
  // narrows the standard's definition (schema/definitions/README.md,
  // "Guides"); that message in the guide's version is checked against it.
  struct Validation {
    enum class Policy { Off, Reject, Accept, Flag };
    Policy policy = Policy::Off;
    std::vector<std::shared_ptr<const documents::Guide>> guides;
  };
  Validation validation;
  // True when the interchange's sender id (ISA05/06, UNB 0004/0007) is one of this partner's own.
  bool owns(const edi::Interchange& ic) const;
  // "ZZ:ACMESUPPLY, ZZ:ACME2" (or "none"): this partner's ids of one standard, for error texts.
  std::string ids_text(edi::Standard standard) const;
  // True when `url`, normalised (percent-encoding, dot segments), has the
  // scheme, host and port of one of as2.async_mdn_prefixes and its path on a
  // segment boundary.
  bool allows_async_mdn(const std::string& url) const;
};

// <documents webhook="URL"|dir="PATH"|none="true"/> in `file` (a partner's or
// the gateway's); `resolve` makes a relative dir absolute.
Result<Partner::Documents> read_documents(const pugi::xml_node& d, const std::string& file,
                                          const std::function<std::string(const char*)>& resolve);

// The gateway's own EDI ids (<edi> in its config): an interchange must be
// addressed to one of them (ISA07/08, UNB 0010/0007; an empty EDIFACT
// qualifier matches any).
struct EdiIds {
  std::vector<edi::Party> x12, edifact;
  bool ours(const edi::Interchange& ic) const;
  std::string text(edi::Standard standard) const;  // "ZZ:EDIHUB" (or "none")
};

class Partners {
 public:
  // Reads every *.xml in `dir`. Invalid when a file is malformed, an id is
  // missing or an interchange sender id belongs to two partners.
  static Result<Partners> load(const std::string& dir);

  // The gateway's <documents> for every partner whose profile has none.
  void default_documents(const Partner::Documents& documents);

  const std::vector<Partner>& all() const { return partners_; }
  const Partner* find(const std::string& id) const;
  // The partner owning the interchange's sender id, or null.
  const Partner* sender_of(const edi::Interchange& ic) const;
  // Whose the interchange is when `wire` (the partner authenticated on the
  // transport, or named by `replay --partner`) sent it: `wire` for its own
  // sender ids, a partner it <sends-for> for theirs; null otherwise (it may
  // not send that interchange). The one rule for every way in.
  const Partner* owner_for(const Partner& wire, const edi::Interchange& ic) const;
  // What the profiles allow that an operator should know at start (a partner
  // whose only identity is a header), one line each, naming the file.
  const std::vector<std::string>& warnings() const { return warnings_; }
  // The partner with this AS2-From id (case-sensitive, as RFC 4130 says), or null.
  const Partner* as2_sender(const std::string& as2_from) const;
  // The partner with this AS4 PartyId (and type), or null.
  const Partner* as4_sender(const std::string& party_id, const std::string& type) const;
  // The profile of the Peppol access point with this seat id: the one that
  // lists it, else the one with seat="*", else null.
  const Partner* peppol_sender(const std::string& seat) const;

 private:
  std::vector<Partner> partners_;
  std::vector<std::string> warnings_;
};

// "ZZ:ACMESUPPLY" / "5412345000013:14": an id as an operator reads it.
std::string party_text(edi::Standard standard, const edi::Party& party);
std::string parties_text(edi::Standard standard, const std::vector<edi::Party>& parties);  // "a, b" or "none"
std::string sender_text(const edi::Interchange& ic);
std::string receiver_text(const edi::Interchange& ic);

}  // namespace edihub::config
