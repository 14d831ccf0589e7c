# Shell helpers around WssPeer.java (sourced): the unsigned envelope it signs
# and the SwA body around what it signed. Used by tests/integration/as4_wss_test.sh,
# tools/make-as4-wss-samples and tools/bench-as4-wss.

# wss_envelope MESSAGE-ID CID [COMPRESSED]: a SOAP 1.2 UserMessage from ACMESUPPLY
# to EDIHUB whose S12:Body and eb:Messaging carry wsu:Ids and whose header holds
# an empty wsse:Security; one X12 payload by cid (gzipped when COMPRESSED is set).
wss_envelope() {
  local gzip=""
  [[ -n "${3:-}" ]] && gzip='<eb:Property name="CompressionType">application/gzip</eb:Property>'
  cat <<XML
<S12:Envelope xmlns:S12="http://www.w3.org/2003/05/soap-envelope" xmlns:eb="http://docs.oasis-open.org/ebxml-msg/ebms/v3.0/ns/core/200704/" xmlns:wsse="http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-secext-1.0.xsd" xmlns:wsu="http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-utility-1.0.xsd">
  <S12:Header>
    <eb:Messaging S12:mustUnderstand="true" wsu:Id="messaging">
      <eb:UserMessage>
        <eb:MessageInfo><eb:Timestamp>2026-12-01T10:00:00.000Z</eb:Timestamp><eb:MessageId>$1</eb:MessageId></eb:MessageInfo>
        <eb:PartyInfo>
          <eb:From><eb:PartyId type="urn:oasis:names:tc:ebcore:partyid-type:unregistered">ACMESUPPLY</eb:PartyId><eb:Role>http://docs.oasis-open.org/ebxml-msg/ebms/v3.0/ns/core/200704/initiator</eb:Role></eb:From>
          <eb:To><eb:PartyId type="urn:oasis:names:tc:ebcore:partyid-type:unregistered">EDIHUB</eb:PartyId><eb:Role>http://docs.oasis-open.org/ebxml-msg/ebms/v3.0/ns/core/200704/responder</eb:Role></eb:To>
        </eb:PartyInfo>
        <eb:CollaborationInfo><eb:Service type="urn:edihub:service">edi</eb:Service><eb:Action>deliver</eb:Action><eb:ConversationId>conv-$1</eb:ConversationId></eb:CollaborationInfo>
        <eb:PayloadInfo><eb:PartInfo href="cid:$2"><eb:PartProperties><eb:Property name="MimeType">application/edi-x12</eb:Property>$gzip</eb:PartProperties></eb:PartInfo></eb:PayloadInfo>
      </eb:UserMessage>
    </eb:Messaging>
    <wsse:Security S12:mustUnderstand="true"></wsse:Security>
  </S12:Header>
  <S12:Body wsu:Id="body"/>
</S12:Envelope>
XML
}

wss_content_type='multipart/related; boundary="b"; type="application/soap+xml"; start="<soap@acme.example>"'

# wss_swa SIGNED.xml PAYLOAD: the SwA body of the signed envelope and its
# payload, under the Content-ID its PartInfo names (octet-stream when
# encrypted or gzipped, as the AS4 profile sends them).
wss_swa() {
  local cid type=application/edi-x12
  cid=$(grep -o 'href="cid:[^"]*"' "$1" | head -1 | sed -e 's/^href="cid://' -e 's/"$//')
  [[ $2 == *.enc || $2 == *.gz ]] && type=application/octet-stream
  printf -- '--b\r\nContent-Type: application/soap+xml; charset=UTF-8\r\nContent-ID: <soap@acme.example>\r\n\r\n'
  cat "$1"
  printf '\r\n--b\r\nContent-Type: %s\r\nContent-ID: <%s>\r\n\r\n' "$type" "$cid"
  cat "$2"
  printf '\r\n--b--\r\n'
}
