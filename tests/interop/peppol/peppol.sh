# Shell helpers for Peppol messages (sourced), signed and encrypted by the
# JDK peer (tests/interop/as4/WssPeer.java) as a sending access point would.

# peppol_envelope MESSAGE-ID CID FROM-SEAT TO-SEAT SENDER RECEIVER ACTION SERVICE: a
# SOAP 1.2 UserMessage with the Peppol P-Mode values (agreement, AP party
# types, the process as eb:Service of type cenbii-procid-ubl, the document type
# as eb:Action), originalSender and finalRecipient, one gzipped SBD by cid.
# PEPPOL_FROM_TYPE overrides eb:From's PartyId type.
peppol_envelope() {
  cat <<XML
<S12:Envelope xmlns:S12="http://www.w3.org/2003/05/soap-envelope" xmlns:eb="http://docs.oasis-open.org/ebxml-msg/ebms/v3.0/ns/core/200704/" xmlns:wsse="http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-secext-1.0.xsd" xmlns:wsu="http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-utility-1.0.xsd">
  <S12:Header>
    <eb:Messaging S12:mustUnderstand="true" wsu:Id="messaging">
      <eb:UserMessage>
        <eb:MessageInfo><eb:Timestamp>2026-12-03T10:00:00.000Z</eb:Timestamp><eb:MessageId>$1</eb:MessageId></eb:MessageInfo>
        <eb:PartyInfo>
          <eb:From><eb:PartyId type="${PEPPOL_FROM_TYPE:-urn:fdc:peppol.eu:2017:identifiers:ap}">$3</eb:PartyId><eb:Role>http://docs.oasis-open.org/ebxml-msg/ebms/v3.0/ns/core/200704/initiator</eb:Role></eb:From>
          <eb:To><eb:PartyId type="urn:fdc:peppol.eu:2017:identifiers:ap">$4</eb:PartyId><eb:Role>http://docs.oasis-open.org/ebxml-msg/ebms/v3.0/ns/core/200704/responder</eb:Role></eb:To>
        </eb:PartyInfo>
        <eb:CollaborationInfo><eb:AgreementRef>urn:fdc:peppol.eu:2017:agreements:tia:ap_provider</eb:AgreementRef><eb:Service type="cenbii-procid-ubl">$8</eb:Service><eb:Action>$7</eb:Action><eb:ConversationId>conv-$1</eb:ConversationId></eb:CollaborationInfo>
        <eb:MessageProperties><eb:Property name="originalSender" type="iso6523-actorid-upis">$5</eb:Property><eb:Property name="finalRecipient" type="iso6523-actorid-upis">$6</eb:Property></eb:MessageProperties>
        <eb:PayloadInfo><eb:PartInfo href="cid:$2"><eb:PartProperties><eb:Property name="MimeType">application/xml</eb:Property><eb:Property name="CompressionType">application/gzip</eb:Property></eb:PartProperties></eb:PartInfo></eb:PayloadInfo>
      </eb:UserMessage>
    </eb:Messaging>
    <wsse:Security S12:mustUnderstand="true"></wsse:Security>
  </S12:Header>
  <S12:Body wsu:Id="body"/>
</S12:Envelope>
XML
}

# sbd_party FILE Sender|Receiver: the participant value of the SBDH's sender or receiver.
sbd_party() { grep -A1 "<[a-z:]*$2>" "$1" | grep -o 'Identifier [^>]*>[^<]*' | head -1 | cut -d'>' -f2; }
# sbd_scope FILE DOCUMENTID|PROCESSID: that BusinessScope's InstanceIdentifier.
sbd_scope() { grep -A1 "Type>$2<" "$1" | grep -o 'InstanceIdentifier>[^<]*' | head -1 | cut -d'>' -f2; }
# sbd_number FILE: the business document's number (its first cbc:ID).
sbd_number() { grep -o '<cbc:ID>[^<]*' "$1" | head -1 | cut -d'>' -f2; }

# The test steps below use $WORK (scratch), $P (peppol_pki's directory), $S
# (samples/peppol) and $url (our /as4), and the JDK peer compiled into $WORK/java.

# make_peppol ID SBD SEAT [envelope overrides: FROM TO SENDER RECEIVER ACTION SERVICE]:
# $WORK/ID.xml signed by SEAT's key, the SBD gzipped then encrypted for POP000999.
make_peppol() {
  local id=$1 sbd=$2 seat=$3 from=${4:-$3} to=${5:-POP000999} sender receiver action service
  sender=${6:-$(sbd_party "$sbd" Sender)}
  receiver=${7:-$(sbd_party "$sbd" Receiver)}
  action=${8:-busdox-docid-qns::$(sbd_scope "$sbd" DOCUMENTID)}
  service=${9:-$(sbd_scope "$sbd" PROCESSID)}
  peppol_envelope "peppol-$id@$seat" "sbd-$id@$seat" "$from" "$to" "$sender" "$receiver" "$action" "$service" \
    >"$WORK/$id.unsigned.xml"
  gzip -c "$sbd" >"$WORK/$id.sbd.gz"
  java -cp "$WORK/java" WssPeer sign "$WORK/$id.unsigned.xml" "$WORK/$id.xml" "$P/$seat.pk8" "$P/$seat.crt" \
    --encrypt "$P/POP000999.crt" "sbd-$id@$seat=$WORK/$id.sbd.gz" || fail "WssPeer sign $id"
  {
    printf -- '--b\r\nContent-Type: application/soap+xml; charset=UTF-8\r\nContent-ID: <soap@ap.example>\r\n\r\n'
    cat "$WORK/$id.xml"
    printf '\r\n--b\r\nContent-Type: application/octet-stream\r\nContent-ID: <sbd-%s@%s>\r\n\r\n' "$id" "$seat"
    cat "$WORK/$id.sbd.gz.enc"
    printf '\r\n--b--\r\n'
  } >"$WORK/$id.body"
}
post() {  # post ID OUT: posts $WORK/ID.body; prints the HTTP status
  curl -s -o "$2" -w '%{http_code}' -X POST --data-binary @"$WORK/$1.body" \
    -H 'Content-Type: multipart/related; boundary="b"; type="application/soap+xml"; start="<soap@ap.example>"' "$url"
}
# sbd ID FROM [sed expressions]: samples/peppol/FROM with the InstanceIdentifier instance-ID
sbd() {
  local id=$1 from=$2
  shift 2
  sed "0,/InstanceIdentifier>[^<]*</s//InstanceIdentifier>instance-$id</" "$S/$from" >"$WORK/$id.sbd"
  if (($#)); then sed -i "$@" "$WORK/$id.sbd"; fi
}
receipted() {  # receipted ID: 200, a signed eb:Receipt the JDK verifies against what it sent
  check_eq "$1: status" 200 "$(post "$1" "$WORK/$1.answer")"
  grep -q "<eb:RefToMessageId>peppol-$1@[A-Z0-9]*</eb:RefToMessageId></eb:MessageInfo><eb:Receipt><ebbp:NonRepudiationInformation" \
    "$WORK/$1.answer" || fail "$1: no signed Receipt: $(head -c 900 "$WORK/$1.answer")"
  java -cp "$WORK/java" WssPeer verify "$WORK/$1.answer" "$P/POP000999.crt" "$WORK/$1.xml" >"$WORK/$1.verified" ||
    fail "$1: the JDK does not accept our Receipt"
}
refused() {  # refused ID CODE DESCRIPTION-START [ERROR-DETAIL]
  check_eq "$1: status" 500 "$(post "$1" "$WORK/$1.answer")"
  grep -q "errorCode=\"$2\" severity=\"failure\"" "$WORK/$1.answer" || fail "$1: $(head -c 900 "$WORK/$1.answer")"
  grep -q "<eb:Description xml:lang=\"en\">$3" "$WORK/$1.answer" ||
    fail "$1: description $(grep -o '<eb:Description[^<]*' "$WORK/$1.answer")"
  [[ -z "${4:-}" ]] || grep -q "<eb:ErrorDetail>$4</eb:ErrorDetail>" "$WORK/$1.answer" ||
    fail "$1: no eb:ErrorDetail $4: $(grep -o '<eb:Error .*' "$WORK/$1.answer" | head -c 600)"
}

# peppol_test_setup: what every Peppol integration test starts with (after
# lib.sh): $S the samples, $P a fresh test PKI, $db the store, the JDK peer
# compiled into $WORK/java, $ours the samples' receiving participant.
peppol_test_setup() {
  S="$REPO/samples/peppol"
  P="$WORK/pki"
  db="$WORK/edihub.db"
  command -v javac >/dev/null || { echo "javac is not installed (tools/setup installs it)"; exit 1; }
  peppol_pki "$P" || { echo "FAIL: could not make the test PKI"; exit 1; }
  javac -d "$WORK/java" "$REPO/tests/interop/as4/WssPeer.java" || { echo "FAIL: javac WssPeer"; exit 1; }
  ours=$(sbd_party "$S/invoice.xml" Receiver)
}
