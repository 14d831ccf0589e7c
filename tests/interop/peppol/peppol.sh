# Shell helpers for Peppol messages (sourced), signed and encrypted by the
# JDK peer (tests/interop/as4/WssPeer.java) as a sending access point would.

# peppol_envelope MESSAGE-ID CID FROM-SEAT TO-SEAT SENDER RECEIVER ACTION SERVICE: a
# SOAP 1.2 UserMessage with the Peppol P-Mode values (agreement, AP party
# types, the process as eb:Service of type cenbii-procid-ubl, the document type
# as eb:Action), originalSender and finalRecipient, one gzipped SBD by cid.
peppol_envelope() {
  cat <<XML
<S12:Envelope xmlns:S12="http://www.w3.org/2003/05/soap-envelope" xmlns:eb="http://docs.oasis-open.org/ebxml-msg/ebms/v3.0/ns/core/200704/" xmlns:wsse="http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-secext-1.0.xsd" xmlns:wsu="http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-utility-1.0.xsd">
  <S12:Header>
    <eb:Messaging S12:mustUnderstand="true" wsu:Id="messaging">
      <eb:UserMessage>
        <eb:MessageInfo><eb:Timestamp>2026-12-03T10:00:00.000Z</eb:Timestamp><eb:MessageId>$1</eb:MessageId></eb:MessageInfo>
        <eb:PartyInfo>
          <eb:From><eb:PartyId type="urn:fdc:peppol.eu:2017:identifiers:ap">$3</eb:PartyId><eb:Role>http://docs.oasis-open.org/ebxml-msg/ebms/v3.0/ns/core/200704/initiator</eb:Role></eb:From>
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
