// An AS4 sending partner's WS-Security, independent of edihub: the JDK's own
// XML Signature implementation (javax.xml.crypto.dsig, from Apache
// Santuario) signs a SOAP envelope as the eDelivery AS4 profile asks:
// exclusive c14n, RSA-SHA256, SHA-256 digests, references to the SOAP Body,
// the eb:Messaging header and every attachment (cid:, with the SwA profile's
// Attachment-Content-Signature-Transform), the signer's certificate as a
// BinarySecurityToken (or by issuer/serial, or by SKI) in wsse:Security.
//
// It also checks edihub's signed Receipt the way a partner would:
//
//   java WssPeer.java verify RECEIPT.xml SIGNER.pem SENT.xml
//     the signature verifies with SIGNER's key (the BinarySecurityToken holds
//     that certificate), covers the Receipt's eb:Messaging and Body, and its
//     ebbp:NonRepudiationInformation repeats every ds:Reference of SENT.xml.
//
//   java WssPeer.java sign IN.xml OUT.xml KEY.pk8 CERT.pem [options] [CID=FILE ...]
//   java WssPeer.java batch FILE   (one such "sign ..." line per line, one JVM)
//     --sig-alg rsa-sha256|rsa-sha1   (default rsa-sha256)
//     --key-ref bst|issuer-serial|ski (default bst)
//     --skip messaging|body|attachments   leave that part unsigned (a broken message)
//     --inclusive-namespaces PREFIXES exc-c14n with an InclusiveNamespaces PrefixList (e.g. "S12 eb")
//     --encrypt CERT.pem              then encrypt every attachment for CERT (JDK
//                                     javax.crypto): AES-128-GCM content keys wrapped by
//                                     RSA-OAEP SHA-256/MGF1-SHA256 (xmlenc11), the
//                                     ciphertext (IV, data, tag) written to FILE.enc
//
// IN.xml: a SOAP 1.2 envelope whose S12:Body and eb:Messaging carry wsu:Id and
// whose S12:Header holds an empty wsse:Security. KEY.pk8: PKCS#8 DER.
// The attachments are given as CID=FILE: the octets the partner sends.
//
// And it receives edihub's outgoing signed and encrypted AS4 (acknowledgments,
// Peppol Message Level Status) as a partner would:
//
//   java WssPeer.java serve PORT OUR_KEY.pk8 OUR_CERT.pem SENDER_CERT.pem OUTDIR [options]
//     an HTTP server on 127.0.0.1:PORT (0: any free port; it prints
//     "WssPeer serving on 127.0.0.1:N") taking POSTs on any path: SOAP 1.2 as
//     multipart/related (SwA: the root part by `start`, else the first) or a
//     plain application/soap+xml body. Each message: every attachment that a
//     wsse:Security xenc:EncryptedKey (RSA-OAEP xmlenc11, SHA-256, MGF1-SHA256,
//     for OUR_CERT by issuer/serial, SKI or BinarySecurityToken) lists is
//     decrypted (EncryptedData Attachment-Content-Only, AES-128-GCM, the part =
//     IV(12) + ciphertext + tag(16)); then the ds:Signature must verify with
//     SENDER_CERT (named by BinarySecurityToken with the same DER, issuer/serial
//     or SKI): exclusive c14n, RSA-SHA256, SHA-256, covering the Body,
//     eb:Messaging and every attachment (cid:, Attachment-Content-Signature-
//     Transform over the decrypted octets); an Id twice is refused. Payloads
//     whose PartInfo says CompressionType application/gzip are gunzipped.
//     Accepted: OUTDIR/<MessageId>.<n> (n from 1, PartInfo order),
//     OUTDIR/<MessageId>.soap.xml (the SOAP part as received),
//     OUTDIR/<MessageId>.receipt.xml (the answer), and HTTP 200 with a signed
//     eb:Receipt (ebbp:NonRepudiationInformation: a copy of each received
//     ds:Reference; signed with OUR_KEY as edihub signs: Body + eb:Messaging,
//     BinarySecurityToken). Refused: HTTP 500 with an unsigned eb:Error
//     (EBMS:0101 signature, EBMS:0102 decryption, EBMS:0303 gunzip, EBMS:0009
//     anything else), nothing written but the log line. Every message appends
//     "<MessageId> <ok|error> <detail>" to OUTDIR/received.log ("-" for an
//     unknown MessageId; characters outside [A-Za-z0-9@._+-] in file names: "_").
//     --fail N      the first N POSTs get HTTP 503, no body, nothing written
//     --delay-ms N  wait N ms before each answer (after the files are written)
//     --error       a valid message gets a signed eb:Error EBMS:0004 (HTTP 500)
//                   and nothing is written but the log line
//
//   java WssPeer.java open MESSAGE.mime OUR_KEY.pk8 OUR_CERT.pem SENDER_CERT.pem OUTDIR
//     the same on a file holding one HTTP message (header lines - a request
//     line is skipped -, an empty line, the body; CRLF or LF in the header):
//     exit 0 when it is accepted, 1 with the reason on stderr.
import java.io.ByteArrayInputStream;
import java.io.OutputStream;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.Provider;
import java.security.Security;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.AlgorithmParameterSpec;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import javax.xml.crypto.Data;
import javax.xml.crypto.OctetStreamData;
import javax.xml.crypto.URIDereferencer;
import javax.xml.crypto.XMLCryptoContext;
import javax.xml.crypto.XMLStructure;
import javax.xml.crypto.dom.DOMStructure;
import javax.xml.crypto.dsig.CanonicalizationMethod;
import javax.xml.crypto.dsig.DigestMethod;
import javax.xml.crypto.dsig.Reference;
import javax.xml.crypto.dsig.SignatureMethod;
import javax.xml.crypto.dsig.SignedInfo;
import javax.xml.crypto.dsig.Transform;
import javax.xml.crypto.dsig.TransformException;
import javax.xml.crypto.dsig.TransformService;
import javax.xml.crypto.dsig.XMLSignature;
import javax.xml.crypto.dsig.XMLSignatureFactory;
import javax.xml.crypto.dsig.dom.DOMSignContext;
import javax.xml.crypto.dsig.dom.DOMValidateContext;
import javax.xml.crypto.dsig.keyinfo.KeyInfo;
import javax.xml.crypto.dsig.keyinfo.KeyInfoFactory;
import javax.xml.crypto.dsig.spec.C14NMethodParameterSpec;
import javax.xml.crypto.dsig.spec.TransformParameterSpec;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.transform.TransformerFactory;
import javax.xml.transform.dom.DOMSource;
import javax.xml.transform.stream.StreamResult;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;

public class WssPeer {
  static final String WSSE = "http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-secext-1.0.xsd";
  static final String WSU = "http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-utility-1.0.xsd";
  static final String TOKEN = "http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-x509-token-profile-1.0";
  static final String BASE64 = "http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-soap-message-security-1.0#Base64Binary";
  static final String SWA_CONTENT =
      "http://docs.oasis-open.org/wss/oasis-wss-SwAProfile-1.1#Attachment-Content-Signature-Transform";
  static final String EB = "http://docs.oasis-open.org/ebxml-msg/ebms/v3.0/ns/core/200704/";
  static final String SOAP12 = "http://www.w3.org/2003/05/soap-envelope";
  static final String DS = "http://www.w3.org/2000/09/xmldsig#";
  static final String XENC = "http://www.w3.org/2001/04/xmlenc#";
  static final String XENC11 = "http://www.w3.org/2009/xmlenc11#";
  static final String SWA = "http://docs.oasis-open.org/wss/oasis-wss-SwAProfile-1.1";

  // The SwA Attachment-Content-Signature-Transform for binary content: the
  // attachment's octets as they are.
  public static final class SwaContentTransform extends TransformService {
    public void init(TransformParameterSpec params) {}
    public void init(XMLStructure parent, XMLCryptoContext context) {}
    public void marshalParams(XMLStructure parent, XMLCryptoContext context) {}
    public AlgorithmParameterSpec getParameterSpec() { return null; }
    public boolean isFeatureSupported(String feature) { return false; }
    public Data transform(Data data, XMLCryptoContext context) { return data; }
    public Data transform(Data data, XMLCryptoContext context, OutputStream os) throws TransformException {
      try {
        ((OctetStreamData) data).getOctetStream().transferTo(os);
        return null;
      } catch (Exception e) {
        throw new TransformException(e);
      }
    }
  }

  static final class SwaProvider extends Provider {
    SwaProvider() {
      super("EdihubTestSwA", "1.0", "SwA attachment transform for tests");
      putService(new Provider.Service(this, "TransformService", SWA_CONTENT, SwaContentTransform.class.getName(),
                                      null, Map.of("MechanismType", "DOM")));
    }
  }

  static Element child(Element parent, String ns, String local) {
    NodeList l = parent.getElementsByTagNameNS(ns, local);
    if (l.getLength() == 0) throw new IllegalArgumentException("no " + local + " in the envelope");
    return (Element) l.item(0);
  }

  static String hex(BigInteger b) { return b.toString(); }

  static Document parse(String path) throws Exception {
    DocumentBuilderFactory dbf = DocumentBuilderFactory.newInstance();
    dbf.setNamespaceAware(true);
    dbf.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
    return dbf.newDocumentBuilder().parse(Path.of(path).toFile());
  }

  static void fail(String why) {
    System.err.println("receipt not accepted: " + why);
    System.exit(1);
  }

  static void verify(String receiptPath, String signerPath, String sentPath) throws Exception {
    X509Certificate signer = (X509Certificate) CertificateFactory.getInstance("X.509")
        .generateCertificate(new ByteArrayInputStream(Files.readAllBytes(Path.of(signerPath))));
    Document doc = parse(receiptPath);
    Element envelope = doc.getDocumentElement();
    Element body = child(envelope, SOAP12, "Body");
    Element messaging = child(envelope, EB, "Messaging");
    Element security = child(envelope, WSSE, "Security");
    Element token = child(security, WSSE, "BinarySecurityToken");
    X509Certificate inToken = (X509Certificate) CertificateFactory.getInstance("X.509").generateCertificate(
        new ByteArrayInputStream(Base64.getMimeDecoder().decode(token.getTextContent())));
    if (!inToken.equals(signer)) fail("the BinarySecurityToken is not " + signer.getSubjectX500Principal());
    DOMValidateContext ctx = new DOMValidateContext(signer.getPublicKey(), child(security, DS, "Signature"));
    ctx.setIdAttributeNS(body, WSU, "Id");
    ctx.setIdAttributeNS(messaging, WSU, "Id");
    ctx.setIdAttributeNS(token, WSU, "Id");
    XMLSignature sig = XMLSignatureFactory.getInstance("DOM").unmarshalXMLSignature(ctx);
    if (!sig.validate(ctx)) fail("the signature does not verify");
    java.util.Set<String> covered = new java.util.HashSet<>();
    for (Object o : sig.getSignedInfo().getReferences()) covered.add(((Reference) o).getURI());
    if (!covered.contains("#" + messaging.getAttributeNS(WSU, "Id"))) fail("eb:Messaging is not signed");
    if (!covered.contains("#" + body.getAttributeNS(WSU, "Id"))) fail("the Body is not signed");
    // NonRepudiationInformation: every reference we signed, whole: its URI,
    // transforms (with an InclusiveNamespaces PrefixList), digest method and value.
    Map<String, String> sent = new HashMap<>();
    NodeList refs = parse(sentPath).getElementsByTagNameNS(DS, "Reference");
    for (int i = 0; i < refs.getLength(); ++i) {
      Element r = (Element) refs.item(i);
      sent.put(r.getAttribute("URI"), describe(r));
    }
    Map<String, String> receipted = new HashMap<>();
    NodeList parts = doc.getElementsByTagNameNS("http://docs.oasis-open.org/ebxml-bp/ebbp-signals-2.0",
                                                "MessagePartNRInformation");
    for (int i = 0; i < parts.getLength(); ++i) {
      Element r = child((Element) parts.item(i), DS, "Reference");
      receipted.put(r.getAttribute("URI"), describe(r));
    }
    if (!receipted.equals(sent)) fail("NonRepudiationInformation " + receipted + " is not what was sent " + sent);
    System.out.println("receipt verified: signed by " + signer.getSubjectX500Principal() + ", " + receipted.size() +
                       " message parts acknowledged");
  }

  // A ds:Reference as the sender's NRI check compares it.
  static String describe(Element r) {
    StringBuilder d = new StringBuilder();
    d.append("type=").append(r.getAttribute("Type"));
    NodeList all = r.getElementsByTagNameNS(DS, "Transforms");
    if (all.getLength() > 0) {
      NodeList ts = ((Element) all.item(0)).getElementsByTagNameNS(DS, "Transform");
      for (int i = 0; i < ts.getLength(); ++i) {
        Element t = (Element) ts.item(i);
        d.append(" transform=").append(t.getAttribute("Algorithm"));
        NodeList inc = t.getElementsByTagNameNS("http://www.w3.org/2001/10/xml-exc-c14n#", "InclusiveNamespaces");
        if (inc.getLength() > 0) d.append("[").append(((Element) inc.item(0)).getAttribute("PrefixList")).append("]");
      }
    }
    d.append(" digest=").append(child(r, DS, "DigestMethod").getAttribute("Algorithm"));
    d.append(":").append(child(r, DS, "DigestValue").getTextContent().trim());
    return d.toString();
  }

  // Sign, then encrypt (the eDelivery order): one AES-128-GCM key for the
  // message, wrapped for the recipient; each attachment's ciphertext to FILE.enc.
  static void encrypt(Document doc, Element security, String recipientPath, List<String> order,
                      Map<String, byte[]> attachments, Map<String, String> files) throws Exception {
    X509Certificate recipient = (X509Certificate) CertificateFactory.getInstance("X.509")
        .generateCertificate(new ByteArrayInputStream(Files.readAllBytes(Path.of(recipientPath))));
    javax.crypto.KeyGenerator kg = javax.crypto.KeyGenerator.getInstance("AES");
    kg.init(128);
    javax.crypto.SecretKey cek = kg.generateKey();
    javax.crypto.Cipher rsa = javax.crypto.Cipher.getInstance("RSA/ECB/OAEPPadding");
    rsa.init(javax.crypto.Cipher.ENCRYPT_MODE, recipient.getPublicKey(),
             new javax.crypto.spec.OAEPParameterSpec("SHA-256", "MGF1", java.security.spec.MGF1ParameterSpec.SHA256,
                                                     javax.crypto.spec.PSource.PSpecified.DEFAULT));
    byte[] wrapped = rsa.doFinal(cek.getEncoded());

    Element ek = doc.createElementNS(XENC, "xenc:EncryptedKey");
    ek.setAttribute("Id", "EK-1");
    Element method = doc.createElementNS(XENC, "xenc:EncryptionMethod");
    method.setAttribute("Algorithm", XENC11 + "rsa-oaep");
    Element digest = doc.createElementNS(DS, "ds:DigestMethod");
    digest.setAttribute("Algorithm", "http://www.w3.org/2001/04/xmlenc#sha256");
    Element mgf = doc.createElementNS(XENC11, "xenc11:MGF");
    mgf.setAttribute("Algorithm", XENC11 + "mgf1sha256");
    method.appendChild(digest);
    method.appendChild(mgf);
    ek.appendChild(method);
    Element keyInfo = doc.createElementNS(DS, "ds:KeyInfo");
    Element str = doc.createElementNS(WSSE, "wsse:SecurityTokenReference");
    Element data = doc.createElementNS(DS, "ds:X509Data");
    Element is = doc.createElementNS(DS, "ds:X509IssuerSerial");
    Element name = doc.createElementNS(DS, "ds:X509IssuerName");
    name.setTextContent(recipient.getIssuerX500Principal().getName());
    Element serial = doc.createElementNS(DS, "ds:X509SerialNumber");
    serial.setTextContent(recipient.getSerialNumber().toString());
    is.appendChild(name);
    is.appendChild(serial);
    data.appendChild(is);
    str.appendChild(data);
    keyInfo.appendChild(str);
    ek.appendChild(keyInfo);
    Element cipherData = doc.createElementNS(XENC, "xenc:CipherData");
    Element value = doc.createElementNS(XENC, "xenc:CipherValue");
    value.setTextContent(Base64.getEncoder().encodeToString(wrapped));
    cipherData.appendChild(value);
    ek.appendChild(cipherData);
    Element refs = doc.createElementNS(XENC, "xenc:ReferenceList");
    ek.appendChild(refs);
    security.insertBefore(ek, security.getFirstChild());

    java.security.SecureRandom random = new java.security.SecureRandom();
    Node after = ek;
    int n = 0;
    for (String cid : order) {
      String id = "ED-" + (++n);
      byte[] iv = new byte[12];
      random.nextBytes(iv);
      javax.crypto.Cipher gcm = javax.crypto.Cipher.getInstance("AES/GCM/NoPadding");
      gcm.init(javax.crypto.Cipher.ENCRYPT_MODE, cek, new javax.crypto.spec.GCMParameterSpec(128, iv));
      byte[] sealed = gcm.doFinal(attachments.get(cid));
      byte[] out = new byte[iv.length + sealed.length];
      System.arraycopy(iv, 0, out, 0, iv.length);
      System.arraycopy(sealed, 0, out, iv.length, sealed.length);
      Files.write(Path.of(files.get(cid) + ".enc"), out);

      Element ref = doc.createElementNS(XENC, "xenc:DataReference");
      ref.setAttribute("URI", "#" + id);
      refs.appendChild(ref);
      Element ed = doc.createElementNS(XENC, "xenc:EncryptedData");
      ed.setAttribute("Id", id);
      ed.setAttribute("MimeType", "application/edi-x12");
      ed.setAttribute("Type", SWA + "#Attachment-Content-Only");
      Element edMethod = doc.createElementNS(XENC, "xenc:EncryptionMethod");
      edMethod.setAttribute("Algorithm", XENC11 + "aes128-gcm");
      ed.appendChild(edMethod);
      Element edKeyInfo = doc.createElementNS(DS, "ds:KeyInfo");
      Element edStr = doc.createElementNS(WSSE, "wsse:SecurityTokenReference");
      Element edRef = doc.createElementNS(WSSE, "wsse:Reference");
      edRef.setAttribute("URI", "#EK-1");
      edStr.appendChild(edRef);
      edKeyInfo.appendChild(edStr);
      ed.appendChild(edKeyInfo);
      Element edData = doc.createElementNS(XENC, "xenc:CipherData");
      Element cref = doc.createElementNS(XENC, "xenc:CipherReference");
      cref.setAttribute("URI", "cid:" + cid);
      Element transforms = doc.createElementNS(XENC, "xenc:Transforms");
      Element t = doc.createElementNS(DS, "ds:Transform");
      t.setAttribute("Algorithm", SWA + "#Attachment-Ciphertext-Transform");
      transforms.appendChild(t);
      cref.appendChild(transforms);
      edData.appendChild(cref);
      ed.appendChild(edData);
      security.insertBefore(ed, after.getNextSibling());
      after = ed;
    }
  }

  public static void main(String[] args) throws Exception {
    if (args.length == 4 && args[0].equals("verify")) {
      verify(args[1], args[2], args[3]);
      return;
    }
    if (args.length >= 6 && args[0].equals("serve")) {
      serve(args);
      return;
    }
    if (args.length == 6 && args[0].equals("open")) {
      open(args);
      return;
    }
    if (args.length == 2 && args[0].equals("batch")) {  // one "sign ..." command line per line: one JVM for many
      for (String line : Files.readAllLines(Path.of(args[1])))
        if (!line.isBlank()) sign(line.trim().split(" +"));
      return;
    }
    if (args.length < 5 || !args[0].equals("sign")) {
      System.err.println("usage: java WssPeer.java sign IN.xml OUT.xml KEY.pk8 CERT.pem [options] [CID=FILE ...]\n"
                         + "       java WssPeer.java verify RECEIPT.xml SIGNER.pem SENT.xml\n"
                         + "       java WssPeer.java batch FILE   (a sign command line per line)\n"
                         + "       java WssPeer.java serve PORT OUR_KEY.pk8 OUR_CERT.pem SENDER_CERT.pem OUTDIR"
                         + " [--fail N] [--delay-ms N] [--error]\n"
                         + "       java WssPeer.java open MESSAGE.mime OUR_KEY.pk8 OUR_CERT.pem SENDER_CERT.pem OUTDIR");
      System.exit(2);
    }
    sign(args);
  }

  static void sign(String[] args) throws Exception {
    String sigAlg = "rsa-sha256", keyRef = "bst", skip = "", encryptFor = null;
    List<String> inclusive = null;
    Map<String, byte[]> attachments = new HashMap<>();
    Map<String, String> files = new HashMap<>();
    List<String> order = new ArrayList<>();
    for (int i = 5; i < args.length; ++i) {
      switch (args[i]) {
        case "--sig-alg": sigAlg = args[++i]; break;
        case "--key-ref": keyRef = args[++i]; break;
        case "--skip": skip = args[++i]; break;
        case "--encrypt": encryptFor = args[++i]; break;
        case "--inclusive-namespaces": inclusive = List.of(args[++i].split(",")); break;
        default:
          int eq = args[i].indexOf('=');
          String cid = args[i].substring(0, eq);
          files.put(cid, args[i].substring(eq + 1));
          attachments.put(cid, Files.readAllBytes(Path.of(args[i].substring(eq + 1))));
          order.add(cid);
      }
    }
    if (Security.getProvider("EdihubTestSwA") == null) Security.addProvider(new SwaProvider());
    PrivateKey key = KeyFactory.getInstance("RSA").generatePrivate(
        new PKCS8EncodedKeySpec(Files.readAllBytes(Path.of(args[3]))));
    X509Certificate cert = (X509Certificate) CertificateFactory.getInstance("X.509")
        .generateCertificate(new ByteArrayInputStream(Files.readAllBytes(Path.of(args[4]))));

    DocumentBuilderFactory dbf = DocumentBuilderFactory.newInstance();
    dbf.setNamespaceAware(true);
    Document doc = dbf.newDocumentBuilder().parse(Path.of(args[1]).toFile());
    Element envelope = doc.getDocumentElement();
    Element body = child(envelope, SOAP12, "Body");
    Element messaging = child(envelope, EB, "Messaging");
    Element security = child(envelope, WSSE, "Security");
    signEnvelope(doc, body, messaging, security, key, cert, sigAlg, keyRef, skip, inclusive, order, attachments);
    if (encryptFor != null) encrypt(doc, security, encryptFor, order, attachments, files);

    try (OutputStream out = Files.newOutputStream(Path.of(args[2]))) {
      javax.xml.transform.Transformer t = TransformerFactory.newInstance().newTransformer();
      t.setOutputProperty(javax.xml.transform.OutputKeys.OMIT_XML_DECLARATION, "yes");
      t.transform(new DOMSource(doc), new StreamResult(out));
    }
  }

  // The signature of `sign` (and of the answers `serve` signs): references to
  // the Body, eb:Messaging and every attachment, the key named in a
  // wsse:SecurityTokenReference, ds:Signature appended to wsse:Security.
  static void signEnvelope(Document doc, Element body, Element messaging, Element security, PrivateKey key,
                           X509Certificate cert, String sigAlg, String keyRef, String skip, List<String> inclusive,
                           List<String> order, Map<String, byte[]> attachments) throws Exception {
    if (Security.getProvider("EdihubTestSwA") == null) Security.addProvider(new SwaProvider());
    XMLSignatureFactory fac = XMLSignatureFactory.getInstance("DOM");
    DigestMethod sha256 = fac.newDigestMethod(DigestMethod.SHA256, null);
    List<Transform> c14n = List.of(fac.newTransform(
        CanonicalizationMethod.EXCLUSIVE,
        inclusive == null ? (TransformParameterSpec) null : new javax.xml.crypto.dsig.spec.ExcC14NParameterSpec(inclusive)));
    List<Reference> refs = new ArrayList<>();
    if (!skip.equals("body")) refs.add(fac.newReference("#" + body.getAttributeNS(WSU, "Id"), sha256, c14n, null, null));
    if (!skip.equals("messaging"))
      refs.add(fac.newReference("#" + messaging.getAttributeNS(WSU, "Id"), sha256, c14n, null, null));
    if (!skip.equals("attachments"))
      for (String cid : order)
        refs.add(fac.newReference("cid:" + cid, sha256,
                                  List.of(fac.newTransform(SWA_CONTENT, (TransformParameterSpec) null)), null, null));
    String method = sigAlg.equals("rsa-sha1") ? SignatureMethod.RSA_SHA1 : SignatureMethod.RSA_SHA256;
    SignedInfo si = fac.newSignedInfo(
        fac.newCanonicalizationMethod(CanonicalizationMethod.EXCLUSIVE, (C14NMethodParameterSpec) null),
        fac.newSignatureMethod(method, null), refs);

    // The key reference, in a wsse:SecurityTokenReference.
    Element str = doc.createElementNS(WSSE, "wsse:SecurityTokenReference");
    switch (keyRef) {
      case "bst": {
        Element bst = doc.createElementNS(WSSE, "wsse:BinarySecurityToken");
        bst.setAttribute("EncodingType", BASE64);
        bst.setAttribute("ValueType", TOKEN + "#X509v3");
        bst.setAttributeNS(WSU, "wsu:Id", "X509-signer");
        bst.setTextContent(Base64.getEncoder().encodeToString(cert.getEncoded()));
        security.appendChild(bst);
        Element ref = doc.createElementNS(WSSE, "wsse:Reference");
        ref.setAttribute("URI", "#X509-signer");
        ref.setAttribute("ValueType", TOKEN + "#X509v3");
        str.appendChild(ref);
        break;
      }
      case "issuer-serial": {
        Element data = doc.createElementNS(DS, "ds:X509Data");
        Element is = doc.createElementNS(DS, "ds:X509IssuerSerial");
        Element name = doc.createElementNS(DS, "ds:X509IssuerName");
        name.setTextContent(cert.getIssuerX500Principal().getName());
        Element serial = doc.createElementNS(DS, "ds:X509SerialNumber");
        serial.setTextContent(hex(cert.getSerialNumber()));
        is.appendChild(name);
        is.appendChild(serial);
        data.appendChild(is);
        str.appendChild(data);
        break;
      }
      case "ski": {
        byte[] ext = cert.getExtensionValue("2.5.29.14");  // OCTET STRING { OCTET STRING ski }
        byte[] ski = java.util.Arrays.copyOfRange(ext, 4, ext.length);
        Element ki = doc.createElementNS(WSSE, "wsse:KeyIdentifier");
        ki.setAttribute("EncodingType", BASE64);
        ki.setAttribute("ValueType", TOKEN + "#X509SubjectKeyIdentifier");
        ki.setTextContent(Base64.getEncoder().encodeToString(ski));
        str.appendChild(ki);
        break;
      }
      default: throw new IllegalArgumentException("--key-ref " + keyRef);
    }
    KeyInfoFactory kif = fac.getKeyInfoFactory();
    KeyInfo ki = kif.newKeyInfo(List.of(new DOMStructure(str)));

    DOMSignContext ctx = new DOMSignContext(key, security);
    ctx.setDefaultNamespacePrefix("ds");
    ctx.setIdAttributeNS(body, WSU, "Id");
    ctx.setIdAttributeNS(messaging, WSU, "Id");
    URIDereferencer standard = fac.getURIDereferencer();
    ctx.setURIDereferencer((uriRef, c) -> {
      String uri = uriRef.getURI();
      if (uri.startsWith("cid:")) {
        byte[] bytes = attachments.get(uri.substring(4));
        if (bytes == null) throw new javax.xml.crypto.URIReferenceException("no attachment " + uri);
        return new OctetStreamData(new ByteArrayInputStream(bytes), uri, null);
      }
      return standard.dereference(uriRef, c);
    });
    XMLSignature signature = fac.newXMLSignature(si, ki);
    signature.sign(ctx);
  }

  // ---------------------------------------------------------------------------
  // Receiving (serve, open): a partner's side of edihub's outgoing AS4.

  static final String ULTIMATE_RECEIVER = "http://www.w3.org/2003/05/soap-envelope/role/ultimateReceiver";
  static final String EXC_C14N = "http://www.w3.org/2001/10/xml-exc-c14n#";
  static final String RSA_SHA256 = "http://www.w3.org/2001/04/xmldsig-more#rsa-sha256";
  static final String SHA256 = "http://www.w3.org/2001/04/xmlenc#sha256";
  static final String EBBP = "http://docs.oasis-open.org/ebxml-bp/ebbp-signals-2.0";
  static final String XMLNS = "http://www.w3.org/2000/xmlns/";
  static final String XML_NS = "http://www.w3.org/XML/1998/namespace";
  static final String SOAP_TYPE = "application/soap+xml; charset=UTF-8";

  // A message we do not accept: the eb:Error code and its Description.
  static final class Refused extends Exception {
    final String code;
    Refused(String code, String detail) {
      super(detail, null, false, false);
      this.code = code;
    }
  }
  static Refused invalid(String detail) { return new Refused("EBMS:0009", detail); }
  static Refused authentication(String detail) { return new Refused("EBMS:0101", detail); }
  static Refused decryption(String detail) { return new Refused("EBMS:0102", detail); }

  // What one received message turned out to be.
  static final class Received {
    String messageId = "";
    byte[] soap;
    Document doc;
    Element messaging, body, security, signature;
    Map<String, byte[]> attachments = new java.util.LinkedHashMap<>();  // Content-ID -> octets (decrypted)
    Map<String, String> types = new HashMap<>();  // Content-ID -> Content-Type (after decryption: EncryptedData's MimeType)
    Map<String, Element> ids = new HashMap<>();
    List<Element> references = new ArrayList<>();  // the ds:References of the received signature
    List<byte[]> payloads = new ArrayList<>();
    int decrypted;
    String signer = "";
  }

  // The answer to one message, and its line in received.log.
  static final class Answer {
    int status;
    byte[] body;
    String messageId, log;
    boolean ok;
  }

  static final class Receiver {
    final PrivateKey ourKey;
    final X509Certificate ourCert, sender;
    final Path outDir;
    boolean errorMode;

    Receiver(String ourKey, String ourCert, String sender, String outDir) throws Exception {
      this.ourKey = KeyFactory.getInstance("RSA").generatePrivate(new PKCS8EncodedKeySpec(Files.readAllBytes(Path.of(ourKey))));
      this.ourCert = readCert(ourCert);
      this.sender = readCert(sender);
      this.outDir = Path.of(outDir);
      Files.createDirectories(this.outDir);
      if (Security.getProvider("EdihubTestSwA") == null) Security.addProvider(new SwaProvider());
    }

    synchronized void log(String messageId, boolean ok, String detail) throws Exception {
      String line = (messageId.isEmpty() ? "-" : messageId.replaceAll("\\s", "_")) + " " + (ok ? "ok" : "error") + " " +
                    detail.replaceAll("[\r\n]+", " ") + "\n";
      Files.writeString(outDir.resolve("received.log"), line, java.nio.charset.StandardCharsets.UTF_8,
                        java.nio.file.StandardOpenOption.CREATE, java.nio.file.StandardOpenOption.APPEND);
    }

    // Receives one HTTP message: checks it, writes what it carries, answers.
    Answer handle(String contentType, byte[] body) throws Exception {
      Received r = new Received();
      Answer a = new Answer();
      try {
        receive(contentType, body, r);
        a.messageId = r.messageId;
        String name = fileName(r.messageId);
        if (errorMode) {
          String why = "the partner refuses this message (WssPeer serve --error)";
          a.status = 500;
          a.body = signal(r.messageId, d -> errorElement(d, "EBMS:0004", why, r.messageId), this);
          a.log = "EBMS:0004 " + why + "; the message itself was valid: " + summary(r);
          log(r.messageId, false, a.log);
          return a;
        }
        Files.write(outDir.resolve(name + ".soap.xml"), r.soap);
        for (int i = 0; i < r.payloads.size(); ++i) Files.write(outDir.resolve(name + "." + (i + 1)), r.payloads.get(i));
        a.status = 200;
        a.body = signal(r.messageId, d -> receiptElement(d, r.references), this);
        Files.write(outDir.resolve(name + ".receipt.xml"), a.body);
        a.ok = true;
        a.log = summary(r);
        log(r.messageId, true, a.log);
      } catch (Refused e) {
        a.messageId = r.messageId;
        a.status = 500;
        a.body = signal(r.messageId, d -> errorElement(d, e.code, e.getMessage(), r.messageId), null);
        a.log = e.code + " " + e.getMessage();
        log(r.messageId, false, a.log);
      }
      return a;
    }

    static String summary(Received r) {
      return r.payloads.size() + " payload(s); signed by " + r.signer + "; " + r.decrypted + " of " +
             r.attachments.size() + " attachment(s) decrypted";
    }

    void receive(String contentType, byte[] body, Received r) throws Exception {
      unpack(contentType, body, r);
      envelope(r);
      decrypt(r);
      verifySignature(r);
      payloads(r);
    }

    // --- MIME: the SOAP root part and the attachments by Content-ID.
    static void unpack(String contentType, byte[] body, Received r) throws Refused {
      if (contentType == null || contentType.isBlank()) throw invalid("missing Content-Type");
      Map<String, String> ct = contentTypeParams(contentType);
      String type = ct.get("");
      if (type.equals("application/soap+xml")) {
        r.soap = body;
        return;
      }
      if (!type.equals("multipart/related"))
        throw invalid("Content-Type '" + type + "' is neither multipart/related nor application/soap+xml");
      String boundary = ct.get("boundary");
      if (boundary == null || boundary.isEmpty()) throw invalid("multipart/related has no boundary parameter");
      if (ct.containsKey("type") && !ct.get("type").equalsIgnoreCase("application/soap+xml"))
        throw invalid("multipart/related type '" + ct.get("type") + "' is not application/soap+xml");
      String start = ct.containsKey("start") ? stripAngles(ct.get("start")) : null;
      byte[] delimiter = ("\r\n--" + boundary).getBytes(java.nio.charset.StandardCharsets.ISO_8859_1);
      // The first delimiter may open the body; the others follow a CRLF (RFC 2046 5.1.1).
      int at = startsWith(body, 0, delimiter, 2) ? 0 : indexOf(body, delimiter, 0);
      if (at < 0) throw invalid("multipart/related: no boundary '--" + boundary + "' in the body");
      int pos = at == 0 && startsWith(body, 0, delimiter, 2) ? delimiter.length - 2 : at + delimiter.length;
      List<Map<String, String>> headers = new ArrayList<>();
      List<byte[]> contents = new ArrayList<>();
      while (true) {
        if (startsWith(body, pos, "--".getBytes(), 0)) break;  // the close delimiter
        while (pos < body.length && (body[pos] == ' ' || body[pos] == '\t')) ++pos;  // transport padding
        if (!startsWith(body, pos, "\r\n".getBytes(), 0))
          throw invalid("multipart/related: no CRLF after the boundary of MIME part " + (contents.size() + 1));
        pos += 2;
        int next = indexOf(body, delimiter, pos);
        if (next < 0) throw invalid("multipart/related: no closing boundary '--" + boundary + "--'");
        byte[] part = java.util.Arrays.copyOfRange(body, pos, next);
        int n = contents.size() + 1;
        int split = startsWith(part, 0, "\r\n".getBytes(), 0) ? 0 : indexOf(part, "\r\n\r\n".getBytes(), 0);
        if (split < 0) throw invalid("MIME part " + n + " has no empty line after its headers");
        Map<String, String> h = headerMap(new String(part, 0, split, java.nio.charset.StandardCharsets.ISO_8859_1));
        byte[] content = java.util.Arrays.copyOfRange(part, split == 0 ? 2 : split + 4, part.length);
        String cte = h.getOrDefault("content-transfer-encoding", "binary").trim().toLowerCase();
        switch (cte) {
          case "binary": case "8bit": case "7bit": break;
          case "base64": content = Base64.getMimeDecoder().decode(content); break;
          default: throw invalid("MIME part " + n + ": Content-Transfer-Encoding '" + cte + "' is not supported");
        }
        headers.add(h);
        contents.add(content);
        pos = next + delimiter.length;
      }
      int root = 0;
      if (start != null) {
        root = -1;
        for (int i = 0; i < headers.size(); ++i)
          if (start.equals(stripAngles(headers.get(i).getOrDefault("content-id", "")))) root = i;
        if (root < 0) throw invalid("no MIME part has the start Content-ID '<" + start + ">'");
      }
      String rootType = contentTypeParams(headers.get(root).getOrDefault("content-type", "")).get("");
      if (!rootType.equals("application/soap+xml"))
        throw invalid("the root MIME part's Content-Type '" + rootType + "' is not application/soap+xml");
      r.soap = contents.get(root);
      for (int i = 0; i < headers.size(); ++i) {
        if (i == root) continue;
        String cid = stripAngles(headers.get(i).getOrDefault("content-id", ""));
        if (cid.isEmpty()) throw invalid("MIME part " + (i + 1) + " has no Content-ID");
        if (r.attachments.put(cid, contents.get(i)) != null) throw invalid("two MIME parts have the Content-ID <" + cid + ">");
        r.types.put(cid, contentTypeParams(headers.get(i).getOrDefault("content-type", "")).get(""));
      }
    }

    // --- The SOAP envelope: eb:Messaging, eb:MessageId, the Ids, wsse:Security.
    static void envelope(Received r) throws Refused {
      try {
        DocumentBuilderFactory dbf = DocumentBuilderFactory.newInstance();
        dbf.setNamespaceAware(true);
        dbf.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
        javax.xml.parsers.DocumentBuilder db = dbf.newDocumentBuilder();
        db.setErrorHandler(null);
        r.doc = db.parse(new ByteArrayInputStream(r.soap));
      } catch (Exception e) {
        throw invalid("the SOAP envelope is not well-formed XML: " + e.getMessage());
      }
      Element envelope = r.doc.getDocumentElement();
      if (!is(envelope, SOAP12, "Envelope")) throw invalid("the root element is not a SOAP 1.2 Envelope");
      Element header = only(envelope, SOAP12, "Header", "S12:Header");
      r.body = only(envelope, SOAP12, "Body", "S12:Body");
      if (header == null) throw invalid("the envelope has no S12:Header");
      if (r.body == null) throw invalid("the envelope has no S12:Body");
      r.messaging = only(header, EB, "Messaging", "eb:Messaging header");
      if (r.messaging == null) throw invalid("no eb:Messaging header");
      Element um = only(r.messaging, EB, "UserMessage", "eb:UserMessage");
      if (um == null) throw invalid("eb:Messaging holds no eb:UserMessage");
      Element info = only(um, EB, "MessageInfo", "eb:MessageInfo");
      Element id = info == null ? null : only(info, EB, "MessageId", "eb:MessageId");
      if (id == null || id.getTextContent().trim().isEmpty()) throw invalid("eb:UserMessage has no eb:MessageInfo/eb:MessageId");
      r.messageId = id.getTextContent().trim();

      // Every wsu:Id and unqualified Id; one value twice is signature wrapping.
      List<Element> stack = new ArrayList<>(List.of(envelope));
      while (!stack.isEmpty()) {
        Element e = stack.remove(stack.size() - 1);
        org.w3c.dom.NamedNodeMap attrs = e.getAttributes();
        for (int i = 0; i < attrs.getLength(); ++i) {
          org.w3c.dom.Attr a = (org.w3c.dom.Attr) attrs.item(i);
          if (!"Id".equals(a.getLocalName()) || !(a.getNamespaceURI() == null || WSU.equals(a.getNamespaceURI()))) continue;
          if (r.ids.put(a.getValue(), e) != null)
            throw authentication("the Id '" + a.getValue() + "' occurs twice (signature wrapping)");
        }
        for (Node c = e.getFirstChild(); c != null; c = c.getNextSibling())
          if (c instanceof Element) stack.add((Element) c);
      }

      for (Element s : children(header, WSSE, "Security")) {
        String role = s.getAttributeNS(SOAP12, "role");
        if (!role.isEmpty() && !role.equals(ULTIMATE_RECEIVER)) continue;
        if (r.security != null) throw authentication("more than one wsse:Security header for this receiver");
        r.security = s;
      }
      if (r.security == null) throw authentication("there is no wsse:Security header: the message is not signed");
    }

    // --- Decryption: each EncryptedKey for our certificate, the attachments it lists.
    void decrypt(Received r) throws Exception {
      java.util.Set<Element> listed = new java.util.HashSet<>();
      java.util.Set<String> done = new java.util.HashSet<>();
      for (Element ek : children(r.security, XENC, "EncryptedKey")) {
        Element method = first(ek, XENC, "EncryptionMethod");
        String alg = method == null ? "" : method.getAttribute("Algorithm");
        if (!alg.equals(XENC11 + "rsa-oaep"))
          throw decryption("the key transport algorithm '" + alg + "' is not RSA-OAEP (" + XENC11 + "rsa-oaep)");
        Element dm = first(method, DS, "DigestMethod");
        String digest = dm == null ? "none (SHA-1 by default)" : dm.getAttribute("Algorithm");
        if (!digest.equals(SHA256))
          throw decryption("the RSA-OAEP digest '" + digest + "' is not SHA-256 (" + SHA256 + ")");
        Element mgf = first(method, XENC11, "MGF");
        String mgfAlg = mgf == null ? "none (MGF1 with SHA-1 by default)" : mgf.getAttribute("Algorithm");
        if (!mgfAlg.equals(XENC11 + "mgf1sha256"))
          throw decryption("the RSA-OAEP mask generation '" + mgfAlg + "' is not MGF1 with SHA-256 (" + XENC11 + "mgf1sha256)");
        Element params = first(method, XENC, "OAEPparams");
        javax.crypto.spec.PSource source = params == null ? javax.crypto.spec.PSource.PSpecified.DEFAULT
            : new javax.crypto.spec.PSource.PSpecified(Base64.getMimeDecoder().decode(params.getTextContent().trim()));
        String other = namedOtherwise(first(ek, DS, "KeyInfo"), r, ourCert, "EBMS:0102", "the recipient's");
        if (other != null) throw decryption("encrypted for a certificate that is not ours (" + other + ")");
        Element cipherData = first(ek, XENC, "CipherData");
        Element cipherValue = cipherData == null ? null : first(cipherData, XENC, "CipherValue");
        if (cipherValue == null) throw decryption("the xenc:EncryptedKey has no xenc:CipherData/xenc:CipherValue");
        javax.crypto.SecretKey cek;
        try {
          javax.crypto.Cipher rsa = javax.crypto.Cipher.getInstance("RSA/ECB/OAEPPadding");
          rsa.init(javax.crypto.Cipher.DECRYPT_MODE, ourKey,
                   new javax.crypto.spec.OAEPParameterSpec("SHA-256", "MGF1", java.security.spec.MGF1ParameterSpec.SHA256, source));
          cek = new javax.crypto.spec.SecretKeySpec(
              rsa.doFinal(Base64.getMimeDecoder().decode(cipherValue.getTextContent().trim())), "AES");
        } catch (java.security.GeneralSecurityException | IllegalArgumentException e) {
          throw decryption("the xenc:EncryptedKey does not decrypt with our key (RSA-OAEP SHA-256/MGF1-SHA256)");
        }
        Element refs = first(ek, XENC, "ReferenceList");
        List<Element> dataRefs = refs == null ? List.of() : children(refs, XENC, "DataReference");
        if (dataRefs.isEmpty()) throw decryption("the xenc:EncryptedKey lists no xenc:ReferenceList/xenc:DataReference");
        for (Element ref : dataRefs) {
          String uri = ref.getAttribute("URI");
          Element ed = uri.startsWith("#") ? r.ids.get(uri.substring(1)) : null;
          if (ed == null || !is(ed, XENC, "EncryptedData"))
            throw decryption("the xenc:DataReference '" + uri + "' points to no xenc:EncryptedData");
          listed.add(ed);
          decryptAttachment(ed, cek, r, done);
        }
      }
      NodeList all = r.doc.getElementsByTagNameNS(XENC, "EncryptedData");
      for (int i = 0; i < all.getLength(); ++i)
        if (!listed.contains(all.item(i)))
          throw decryption("the xenc:EncryptedData '" + idOf((Element) all.item(i)) + "' is listed by no xenc:EncryptedKey");
      r.decrypted = done.size();
    }

    static void decryptAttachment(Element ed, javax.crypto.SecretKey cek, Received r, java.util.Set<String> done)
        throws Refused {
      String id = idOf(ed);
      String type = ed.getAttribute("Type");
      if (!type.equals(SWA + "#Attachment-Content-Only"))
        throw decryption("the xenc:EncryptedData '" + id + "' has Type '" + type + "', not " + SWA + "#Attachment-Content-Only");
      Element method = first(ed, XENC, "EncryptionMethod");
      String alg = method == null ? "" : method.getAttribute("Algorithm");
      if (!alg.equals(XENC11 + "aes128-gcm"))
        throw decryption("the xenc:EncryptedData '" + id + "' algorithm '" + alg + "' is not AES-128-GCM (" + XENC11 + "aes128-gcm)");
      Element cipherData = first(ed, XENC, "CipherData");
      Element cref = cipherData == null ? null : first(cipherData, XENC, "CipherReference");
      String uri = cref == null ? "" : cref.getAttribute("URI");
      if (!uri.startsWith("cid:"))
        throw decryption("the xenc:EncryptedData '" + id + "' has no xenc:CipherReference to a cid: attachment");
      boolean transform = false;
      NodeList ts = cref.getElementsByTagNameNS(DS, "Transform");
      for (int i = 0; i < ts.getLength(); ++i)
        transform |= ((Element) ts.item(i)).getAttribute("Algorithm").equals(SWA + "#Attachment-Ciphertext-Transform");
      if (!transform)
        throw decryption("the xenc:CipherReference '" + uri + "' has no " + SWA + "#Attachment-Ciphertext-Transform");
      String cid = cidOf(uri);
      byte[] sealed = r.attachments.get(cid);
      if (sealed == null) throw decryption("the xenc:CipherReference '" + uri + "' names no attachment of this message");
      if (!done.add(cid)) throw decryption("the attachment cid:" + cid + " is encrypted twice");
      if (cek.getEncoded().length != 16)
        throw decryption("the content key is " + cek.getEncoded().length + " bytes, not an AES-128 key");
      try {
        if (sealed.length < 12 + 16) throw new javax.crypto.AEADBadTagException("too short");
        javax.crypto.Cipher gcm = javax.crypto.Cipher.getInstance("AES/GCM/NoPadding");
        gcm.init(javax.crypto.Cipher.DECRYPT_MODE, cek, new javax.crypto.spec.GCMParameterSpec(128, sealed, 0, 12));
        r.attachments.put(cid, gcm.doFinal(sealed, 12, sealed.length - 12));
        // As WSS4J does: the decrypted part gets its Content-Type back from the MimeType.
        r.types.put(cid, ed.getAttribute("MimeType"));
      } catch (java.security.GeneralSecurityException e) {
        throw decryption("the attachment cid:" + cid + " does not decrypt (AES-128-GCM)");
      }
    }

    // --- The signature: algorithms, coverage, the signer, the values.
    void verifySignature(Received r) throws Exception {
      List<Element> sigs = children(r.security, DS, "Signature");
      if (sigs.isEmpty()) throw authentication("wsse:Security has no ds:Signature: the message is not signed");
      if (sigs.size() > 1) throw authentication("wsse:Security holds more than one ds:Signature");
      r.signature = sigs.get(0);
      Element signedInfo = first(r.signature, DS, "SignedInfo");
      if (signedInfo == null) throw authentication("ds:Signature has no ds:SignedInfo");
      Element c14n = first(signedInfo, DS, "CanonicalizationMethod");
      String c14nAlg = c14n == null ? "" : c14n.getAttribute("Algorithm");
      if (!c14nAlg.equals(EXC_C14N))
        throw authentication("the SignedInfo canonicalization '" + c14nAlg + "' is not exclusive c14n (" + EXC_C14N + ")");
      Element sm = first(signedInfo, DS, "SignatureMethod");
      String smAlg = sm == null ? "" : sm.getAttribute("Algorithm");
      if (!smAlg.equals(RSA_SHA256))
        throw authentication("the signature algorithm '" + smAlg + "' is not RSA-SHA256 (" + RSA_SHA256 + ")");
      boolean body = false, messaging = false;
      java.util.Set<String> cids = new java.util.HashSet<>();
      r.references = children(signedInfo, DS, "Reference");
      if (r.references.isEmpty()) throw authentication("the signature has no ds:Reference");
      for (Element ref : r.references) {
        String uri = ref.getAttribute("URI");
        Element dm = first(ref, DS, "DigestMethod");
        String digest = dm == null ? "" : dm.getAttribute("Algorithm");
        if (!digest.equals(SHA256))
          throw authentication("the reference '" + uri + "' digest algorithm '" + digest + "' is not SHA-256 (" + SHA256 + ")");
        List<String> transforms = new ArrayList<>();
        Element ts = first(ref, DS, "Transforms");
        if (ts != null) for (Element t : children(ts, DS, "Transform")) transforms.add(t.getAttribute("Algorithm"));
        if (uri.startsWith("#")) {
          Element target = r.ids.get(uri.substring(1));
          if (target == null) throw authentication("the reference '" + uri + "' names no element of this message");
          if (!transforms.equals(List.of(EXC_C14N)))
            throw authentication("the reference '" + uri + "' is not transformed by exclusive c14n alone (its transforms: " +
                                 transforms + ")");
          body |= target == r.body;
          messaging |= target == r.messaging;
        } else if (uri.startsWith("cid:")) {
          if (!r.attachments.containsKey(cidOf(uri)))
            throw authentication("the reference '" + uri + "' names no attachment of this message");
          if (!transforms.equals(List.of(SWA_CONTENT)))
            throw authentication("the reference '" + uri + "' is not transformed by the SwA Attachment-Content-Signature-Transform " +
                                 "alone (its transforms: " + transforms + ")");
          cids.add(cidOf(uri));
        } else {
          throw authentication("the reference '" + uri + "' is neither a same-document '#Id' nor a 'cid:' attachment");
        }
      }
      if (!messaging) throw authentication("the signature does not cover the eb:Messaging header");
      if (!body) throw authentication("the signature does not cover the SOAP Body");
      for (String cid : r.attachments.keySet())
        if (!cids.contains(cid)) throw authentication("the signature does not cover the attachment cid:" + cid);

      String other = namedOtherwise(first(r.signature, DS, "KeyInfo"), r, sender, "EBMS:0101", "the signer's");
      if (other != null)
        throw authentication("signed by a certificate that is not the sender's " + sender.getSubjectX500Principal() + " (" +
                             other + ")");

      DOMValidateContext ctx = new DOMValidateContext(sender.getPublicKey(), r.signature);
      ctx.setProperty("org.jcp.xml.dsig.secureValidation", Boolean.TRUE);
      for (Map.Entry<String, Element> e : r.ids.entrySet()) {
        Element el = e.getValue();
        if (el.hasAttributeNS(WSU, "Id") && el.getAttributeNS(WSU, "Id").equals(e.getKey())) ctx.setIdAttributeNS(el, WSU, "Id");
        else ctx.setIdAttributeNS(el, null, "Id");
      }
      XMLSignatureFactory fac = XMLSignatureFactory.getInstance("DOM");
      URIDereferencer standard = fac.getURIDereferencer();
      ctx.setURIDereferencer((uriRef, c) -> {
        String uri = uriRef.getURI();
        if (uri.startsWith("cid:")) {
          byte[] bytes = r.attachments.get(cidOf(uri));
          if (bytes == null) throw new javax.xml.crypto.URIReferenceException("no attachment " + uri);
          return new OctetStreamData(new ByteArrayInputStream(bytes), uri, null);
        }
        return standard.dereference(uriRef, c);
      });
      try {
        XMLSignature sig = fac.unmarshalXMLSignature(ctx);
        if (!sig.validate(ctx)) {
          for (Object o : sig.getSignedInfo().getReferences()) {
            Reference ref = (Reference) o;
            if (!ref.validate(ctx))
              throw authentication("the digest of '" + ref.getURI() + "' does not match: that part changed after it was signed");
          }
          throw authentication("the signature value does not verify with the key of " + sender.getSubjectX500Principal());
        }
      } catch (javax.xml.crypto.MarshalException | javax.xml.crypto.dsig.XMLSignatureException e) {
        throw authentication("the signature cannot be checked: " + e.getMessage());
      }
      r.signer = sender.getSubjectX500Principal().toString();
    }

    // --- The payloads, in eb:PartInfo order, gunzipped where CompressionType says so.
    static void payloads(Received r) throws Exception {
      Element um = only(r.messaging, EB, "UserMessage", "eb:UserMessage");
      Element payloadInfo = first(um, EB, "PayloadInfo");
      java.util.Set<String> named = new java.util.HashSet<>();
      for (Element part : payloadInfo == null ? List.<Element>of() : children(payloadInfo, EB, "PartInfo")) {
        String href = part.getAttribute("href");
        byte[] bytes;
        if (href.startsWith("cid:")) {
          bytes = r.attachments.get(cidOf(href));
          if (bytes == null) throw invalid("eb:PartInfo href '" + href + "' names no MIME part");
          named.add(cidOf(href));
        } else {  // a payload in the SOAP Body: the element the href names, or the Body's element
          Element e = href.startsWith("#") ? r.ids.get(href.substring(1)) : firstElement(r.body);
          if (e == null) throw invalid(href.isEmpty() ? "eb:PartInfo has no href and the SOAP Body is empty"
                                                      : "eb:PartInfo href '" + href + "' names nothing in this message");
          bytes = serialize(e, false);
        }
        String compression = "";
        Element props = first(part, EB, "PartProperties");
        if (props != null)
          for (Element p : children(props, EB, "Property"))
            if (p.getAttribute("name").equals("CompressionType")) compression = p.getTextContent().trim();
        // The part's Content-Type after decryption is the one it was signed with:
        // phase4 and Domibus read a compressed part only as application/gzip.
        if (href.startsWith("cid:") && compression.equals("application/gzip") &&
            !"application/gzip".equals(r.types.get(cidOf(href))))
          throw decryption("the part " + href + " is compressed (CompressionType application/gzip) but its " +
                           "Content-Type after decryption is '" + r.types.get(cidOf(href)) + "', not application/gzip " +
                           "(xenc:EncryptedData MimeType)");
        if (compression.equals("application/gzip")) {
          try (java.util.zip.GZIPInputStream in = new java.util.zip.GZIPInputStream(new ByteArrayInputStream(bytes))) {
            bytes = in.readAllBytes();
          } catch (java.io.IOException e) {
            throw new Refused("EBMS:0303", "the payload " + (href.isEmpty() ? "in the SOAP Body" : href) +
                                               " does not gunzip (CompressionType application/gzip): " + e.getMessage());
          }
        } else if (!compression.isEmpty()) {
          throw new Refused("EBMS:0303", "the payload " + href + " has CompressionType '" + compression +
                                             "', not application/gzip");
        }
        r.payloads.add(bytes);
      }
      for (String cid : r.attachments.keySet())
        if (!named.contains(cid)) throw invalid("the MIME part cid:" + cid + " is named by no eb:PartInfo");
    }

    // Null when `keyInfo` names `cert`; else what it names instead.
    static String namedOtherwise(Element keyInfo, Received r, X509Certificate cert, String code, String whose)
        throws Exception {
      Element str = keyInfo == null ? null : first(keyInfo, WSSE, "SecurityTokenReference");
      Element holder = str != null ? str : keyInfo;
      if (holder == null) throw new Refused(code, "no ds:KeyInfo names " + whose + " certificate");
      Element ref = first(holder, WSSE, "Reference");
      if (ref != null) {
        String uri = ref.getAttribute("URI");
        Element token = uri.startsWith("#") ? r.ids.get(uri.substring(1)) : null;
        if (token == null || !is(token, WSSE, "BinarySecurityToken") || token.getParentNode() != r.security)
          throw new Refused(code, "the SecurityTokenReference '" + uri + "' points to no BinarySecurityToken in this wsse:Security");
        X509Certificate inToken;
        try {
          inToken = (X509Certificate) CertificateFactory.getInstance("X.509").generateCertificate(
              new ByteArrayInputStream(Base64.getMimeDecoder().decode(token.getTextContent().trim())));
        } catch (Exception e) {
          throw new Refused(code, "the BinarySecurityToken is not a base64 DER X.509 certificate");
        }
        return java.util.Arrays.equals(inToken.getEncoded(), cert.getEncoded())
            ? null : "BinarySecurityToken " + inToken.getSubjectX500Principal();
      }
      Element data = first(holder, DS, "X509Data");
      Element is = data == null ? null : first(data, DS, "X509IssuerSerial");
      if (is != null) {
        Element name = first(is, DS, "X509IssuerName"), serial = first(is, DS, "X509SerialNumber");
        String n = name == null ? "" : name.getTextContent().trim(), s = serial == null ? "" : serial.getTextContent().trim();
        boolean sameName;
        try {
          sameName = new javax.security.auth.x500.X500Principal(n).equals(cert.getIssuerX500Principal());
        } catch (IllegalArgumentException e) {
          sameName = false;
        }
        boolean sameSerial;
        try {
          sameSerial = new BigInteger(s).equals(cert.getSerialNumber());
        } catch (NumberFormatException e) {
          sameSerial = false;
        }
        return sameName && sameSerial ? null : "issuer " + n + ", serial " + s;
      }
      Element certificate = data == null ? null : first(data, DS, "X509Certificate");
      Element ki = first(holder, WSSE, "KeyIdentifier");
      if (certificate != null || (ki != null && ki.getAttribute("ValueType").endsWith("#X509v3"))) {
        byte[] der = Base64.getMimeDecoder().decode((certificate != null ? certificate : ki).getTextContent().trim());
        return java.util.Arrays.equals(der, cert.getEncoded()) ? null : "a different X.509 certificate";
      }
      if (ki != null && ki.getAttribute("ValueType").endsWith("#X509SubjectKeyIdentifier")) {
        byte[] given = Base64.getMimeDecoder().decode(ki.getTextContent().trim());
        byte[] mine = ski(cert);
        return mine != null && java.util.Arrays.equals(given, mine) ? null
            : "subject key identifier " + java.util.HexFormat.of().formatHex(given);
      }
      if (ki != null && ki.getAttribute("ValueType").endsWith("#ThumbprintSHA1")) {
        byte[] given = Base64.getMimeDecoder().decode(ki.getTextContent().trim());
        byte[] mine = java.security.MessageDigest.getInstance("SHA-1").digest(cert.getEncoded());
        return java.util.Arrays.equals(given, mine) ? null : "SHA-1 thumbprint " + java.util.HexFormat.of().formatHex(given);
      }
      throw new Refused(code, "ds:KeyInfo names " + whose +
                                  " certificate neither by BinarySecurityToken reference, issuer/serial nor subject key identifier");
    }
  }

  // --- The answers: eb:Receipt (signed) and eb:Error, in edihub's layout.

  interface Content { Element make(Document d); }

  // A SOAP 1.2 eb:SignalMessage answering `refTo` with what `content` makes,
  // signed with the receiver's key (Body + eb:Messaging, BinarySecurityToken) when `signer` is set.
  static byte[] signal(String refTo, Content content, Receiver signer) throws Exception {
    Document d = DocumentBuilderFactory.newDefaultNSInstance().newDocumentBuilder().newDocument();
    Element env = d.createElementNS(SOAP12, "S12:Envelope");
    env.setAttributeNS(XMLNS, "xmlns:S12", SOAP12);
    env.setAttributeNS(XMLNS, "xmlns:eb", EB);
    d.appendChild(env);
    Element header = d.createElementNS(SOAP12, "S12:Header");
    env.appendChild(header);
    Element messaging = d.createElementNS(EB, "eb:Messaging");
    messaging.setAttributeNS(SOAP12, "S12:mustUnderstand", "true");
    Element body = d.createElementNS(SOAP12, "S12:Body");
    if (signer != null) {
      env.setAttributeNS(XMLNS, "xmlns:wsse", WSSE);
      env.setAttributeNS(XMLNS, "xmlns:wsu", WSU);
      Element security = d.createElementNS(WSSE, "wsse:Security");
      security.setAttributeNS(SOAP12, "S12:mustUnderstand", "true");
      header.appendChild(security);
      messaging.setAttributeNS(WSU, "wsu:Id", "_wsspeer-messaging");
      body.setAttributeNS(WSU, "wsu:Id", "_wsspeer-body");
    }
    header.appendChild(messaging);
    Element signal = d.createElementNS(EB, "eb:SignalMessage");
    messaging.appendChild(signal);
    Element info = d.createElementNS(EB, "eb:MessageInfo");
    signal.appendChild(info);
    Element ts = d.createElementNS(EB, "eb:Timestamp");
    ts.setTextContent(java.time.format.DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSS'Z'")
                          .withZone(java.time.ZoneOffset.UTC).format(java.time.Instant.now()));
    info.appendChild(ts);
    Element id = d.createElementNS(EB, "eb:MessageId");
    id.setTextContent(java.util.UUID.randomUUID() + "@wsspeer.example");
    info.appendChild(id);
    if (refTo != null && !refTo.isEmpty()) {
      Element ref = d.createElementNS(EB, "eb:RefToMessageId");
      ref.setTextContent(refTo);
      info.appendChild(ref);
    }
    signal.appendChild(content.make(d));
    env.appendChild(body);
    byte[] xml = serialize(env, false);
    if (signer != null) {  // parsed again: every namespace declared where c14n sees it
      Document doc = DocumentBuilderFactory.newDefaultNSInstance().newDocumentBuilder().parse(new ByteArrayInputStream(xml));
      Element e = doc.getDocumentElement();
      signEnvelope(doc, child(e, SOAP12, "Body"), child(e, EB, "Messaging"), child(e, WSSE, "Security"), signer.ourKey,
                   signer.ourCert, "rsa-sha256", "bst", "", null, List.of(), Map.of());
      xml = serialize(e, false);
    }
    byte[] decl = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>".getBytes(java.nio.charset.StandardCharsets.UTF_8);
    byte[] out = new byte[decl.length + xml.length];
    System.arraycopy(decl, 0, out, 0, decl.length);
    System.arraycopy(xml, 0, out, decl.length, xml.length);
    return out;
  }

  // eb:Receipt in the signed form: one MessagePartNRInformation per ds:Reference received, each a copy of it.
  static Element receiptElement(Document d, List<Element> references) {
    Element receipt = d.createElementNS(EB, "eb:Receipt");
    Element nri = d.createElementNS(EBBP, "ebbp:NonRepudiationInformation");
    nri.setAttributeNS(XMLNS, "xmlns:ebbp", EBBP);
    nri.setAttributeNS(XMLNS, "xmlns:ds", DS);
    receipt.appendChild(nri);
    for (Element ref : references) {
      Element part = d.createElementNS(EBBP, "ebbp:MessagePartNRInformation");
      part.appendChild(d.importNode(ref, true));
      nri.appendChild(part);
    }
    return receipt;
  }

  static Element errorElement(Document d, String code, String description, String refTo) {
    Element e = d.createElementNS(EB, "eb:Error");
    e.setAttribute("errorCode", code);
    e.setAttribute("severity", "failure");
    e.setAttribute("category", code.equals("EBMS:0009") ? "Unpackaging"
                               : code.equals("EBMS:0303") ? "Communication"
                               : code.startsWith("EBMS:01") ? "Processing" : "Content");
    e.setAttribute("shortDescription", switch (code) {
      case "EBMS:0009" -> "InvalidHeader";
      case "EBMS:0101" -> "FailedAuthentication";
      case "EBMS:0102" -> "FailedDecryption";
      case "EBMS:0303" -> "DecompressionFailure";
      default -> "Other";
    });
    if (refTo != null && !refTo.isEmpty()) e.setAttribute("refToMessageInError", refTo);
    Element desc = d.createElementNS(EB, "eb:Description");
    desc.setAttributeNS(XML_NS, "xml:lang", "en");
    desc.setTextContent(description);
    e.appendChild(desc);
    return e;
  }

  // --- Small helpers for the receiving side.

  static X509Certificate readCert(String path) throws Exception {
    return (X509Certificate) CertificateFactory.getInstance("X.509")
        .generateCertificate(new ByteArrayInputStream(Files.readAllBytes(Path.of(path))));
  }

  static byte[] serialize(Node n, boolean declaration) throws Exception {
    java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
    javax.xml.transform.Transformer t = TransformerFactory.newInstance().newTransformer();
    t.setOutputProperty(javax.xml.transform.OutputKeys.OMIT_XML_DECLARATION, declaration ? "no" : "yes");
    t.setOutputProperty(javax.xml.transform.OutputKeys.ENCODING, "UTF-8");
    t.transform(new DOMSource(n), new StreamResult(out));
    return out.toByteArray();
  }

  static boolean is(Node n, String ns, String local) {
    return n instanceof Element && ns.equals(n.getNamespaceURI()) && local.equals(n.getLocalName());
  }

  static List<Element> children(Element parent, String ns, String local) {
    List<Element> out = new ArrayList<>();
    for (Node c = parent.getFirstChild(); c != null; c = c.getNextSibling())
      if (is(c, ns, local)) out.add((Element) c);
    return out;
  }

  static Element first(Element parent, String ns, String local) {
    List<Element> l = parent == null ? List.of() : children(parent, ns, local);
    return l.isEmpty() ? null : l.get(0);
  }

  static Element firstElement(Element parent) {
    for (Node c = parent.getFirstChild(); c != null; c = c.getNextSibling())
      if (c instanceof Element) return (Element) c;
    return null;
  }

  // The one child element so named, null when there is none; two are refused.
  static Element only(Element parent, String ns, String local, String what) throws Refused {
    List<Element> l = children(parent, ns, local);
    if (l.size() > 1) throw invalid("more than one " + what);
    return l.isEmpty() ? null : l.get(0);
  }

  static String idOf(Element e) { return e.hasAttributeNS(WSU, "Id") ? e.getAttributeNS(WSU, "Id") : e.getAttribute("Id"); }

  // "cid:" URL -> Content-ID (RFC 2392: %-escapes decoded).
  static String cidOf(String uri) {
    String s = uri.substring(4);
    if (s.indexOf('%') < 0) return s;
    java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
    for (int i = 0; i < s.length(); ++i) {
      char c = s.charAt(i);
      if (c == '%' && i + 2 < s.length()) {
        try {
          out.write(Integer.parseInt(s.substring(i + 1, i + 3), 16));
          i += 2;
          continue;
        } catch (RuntimeException e) { /* a lone '%' */ }
      }
      out.write(c);
    }
    return out.toString(java.nio.charset.StandardCharsets.UTF_8);
  }

  static String stripAngles(String s) {
    s = s.trim();
    return s.startsWith("<") && s.endsWith(">") ? s.substring(1, s.length() - 1) : s;
  }

  // Content-Type -> "" = the type (lower case), and its parameters (names in lower case).
  static Map<String, String> contentTypeParams(String value) {
    Map<String, String> out = new HashMap<>();
    List<String> items = new ArrayList<>();
    StringBuilder cur = new StringBuilder();
    boolean quoted = false;
    for (int i = 0; i < value.length(); ++i) {
      char c = value.charAt(i);
      if (quoted && c == '\\' && i + 1 < value.length()) { cur.append(c).append(value.charAt(++i)); continue; }
      if (c == '"') quoted = !quoted;
      if (c == ';' && !quoted) { items.add(cur.toString()); cur.setLength(0); continue; }
      cur.append(c);
    }
    items.add(cur.toString());
    out.put("", items.get(0).trim().toLowerCase());
    for (String item : items.subList(1, items.size())) {
      int eq = item.indexOf('=');
      if (eq < 0) continue;
      String v = item.substring(eq + 1).trim();
      if (v.length() >= 2 && v.startsWith("\"") && v.endsWith("\""))
        v = v.substring(1, v.length() - 1).replaceAll("\\\\(.)", "$1");
      out.put(item.substring(0, eq).trim().toLowerCase(), v);
    }
    return out;
  }

  // MIME or HTTP header lines (folded lines joined) -> lower-case name -> value.
  static Map<String, String> headerMap(String text) {
    Map<String, String> out = new HashMap<>();
    String last = null;
    for (String line : text.split("\r?\n")) {
      if (line.isEmpty()) continue;
      if ((line.startsWith(" ") || line.startsWith("\t")) && last != null) {
        out.put(last, out.get(last) + " " + line.trim());
        continue;
      }
      int colon = line.indexOf(':');
      if (colon <= 0) continue;  // an HTTP request line
      last = line.substring(0, colon).trim().toLowerCase();
      out.put(last, line.substring(colon + 1).trim());
    }
    return out;
  }

  static boolean startsWith(byte[] data, int at, byte[] prefix, int from) {
    if (at < 0 || data.length - at < prefix.length - from) return false;
    for (int i = from; i < prefix.length; ++i)
      if (data[at + i - from] != prefix[i]) return false;
    return true;
  }

  static int indexOf(byte[] data, byte[] needle, int from) {
    outer:
    for (int i = Math.max(from, 0); i <= data.length - needle.length; ++i) {
      for (int j = 0; j < needle.length; ++j)
        if (data[i + j] != needle[j]) continue outer;
      return i;
    }
    return -1;
  }

  // X.509 SubjectKeyIdentifier: the extension value is OCTET STRING { OCTET STRING ski }.
  static byte[] ski(X509Certificate cert) {
    byte[] ext = cert.getExtensionValue("2.5.29.14");
    return ext == null ? null : derOctets(derOctets(ext));
  }

  static byte[] derOctets(byte[] d) {
    if (d.length < 2 || d[0] != 0x04) throw new IllegalArgumentException("not a DER OCTET STRING");
    int len = d[1] & 0xff, off = 2;
    if ((len & 0x80) != 0) {
      int n = len & 0x7f;
      len = 0;
      for (int i = 0; i < n; ++i) len = (len << 8) | (d[off++] & 0xff);
    }
    return java.util.Arrays.copyOfRange(d, off, off + len);
  }

  // A MessageId as a file name: anything but [A-Za-z0-9@._+-] becomes '_'.
  static String fileName(String messageId) {
    String s = messageId.replaceAll("[^A-Za-z0-9@._+-]", "_");
    return s.startsWith(".") ? "_" + s.substring(1) : s;
  }

  // java WssPeer open MESSAGE.mime OUR_KEY.pk8 OUR_CERT.pem SENDER_CERT.pem OUTDIR
  static void open(String[] args) throws Exception {
    byte[] all = Files.readAllBytes(Path.of(args[1]));
    int crlf = indexOf(all, "\r\n\r\n".getBytes(), 0), lf = indexOf(all, "\n\n".getBytes(), 0);
    int end, skip;
    if (crlf >= 0 && (lf < 0 || crlf < lf)) { end = crlf; skip = 4; } else if (lf >= 0) { end = lf; skip = 2; }
    else { System.err.println("message not accepted: " + args[1] + " has no empty line after its headers"); System.exit(1); return; }
    Map<String, String> headers = headerMap(new String(all, 0, end, java.nio.charset.StandardCharsets.ISO_8859_1));
    Receiver receiver = new Receiver(args[2], args[3], args[4], args[5]);
    Answer a = receiver.handle(headers.get("content-type"), java.util.Arrays.copyOfRange(all, end + skip, all.length));
    if (!a.ok) {
      System.err.println("message not accepted: " + a.log);
      System.exit(1);
    }
    System.out.println("message " + a.messageId + " verified: " + a.log);
  }

  // java WssPeer serve PORT OUR_KEY.pk8 OUR_CERT.pem SENDER_CERT.pem OUTDIR [--fail N] [--delay-ms N] [--error]
  static void serve(String[] args) throws Exception {
    Receiver receiver = new Receiver(args[2], args[3], args[4], args[5]);
    int failFirst = 0;
    long delay = 0;
    for (int i = 6; i < args.length; ++i) {
      switch (args[i]) {
        case "--fail": failFirst = Integer.parseInt(args[++i]); break;
        case "--delay-ms": delay = Long.parseLong(args[++i]); break;
        case "--error": receiver.errorMode = true; break;
        default: throw new IllegalArgumentException("serve: unknown option " + args[i]);
      }
    }
    final int fails = failFirst;
    final long delayMs = delay;
    java.util.concurrent.atomic.AtomicInteger seen = new java.util.concurrent.atomic.AtomicInteger();
    com.sun.net.httpserver.HttpServer server = com.sun.net.httpserver.HttpServer.create(
        new java.net.InetSocketAddress("127.0.0.1", Integer.parseInt(args[1])), 64);
    server.createContext("/", exchange -> {
      try (exchange) {
        if (!exchange.getRequestMethod().equals("POST")) {
          exchange.getResponseHeaders().set("Allow", "POST");
          exchange.sendResponseHeaders(405, -1);
          return;
        }
        byte[] body = exchange.getRequestBody().readAllBytes();
        Answer a;
        if (seen.incrementAndGet() <= fails) {
          a = null;  // --fail: 503, nothing written
        } else {
          try {
            a = receiver.handle(exchange.getRequestHeaders().getFirst("Content-Type"), body);
          } catch (Exception e) {
            e.printStackTrace();
            a = new Answer();
            a.status = 500;
            a.body = signal("", d -> errorElement(d, "EBMS:0004", "WssPeer could not process the message: " + e, ""), null);
          }
        }
        if (delayMs > 0) Thread.sleep(delayMs);
        if (a == null) {
          exchange.sendResponseHeaders(503, -1);
          return;
        }
        exchange.getResponseHeaders().set("Content-Type", SOAP_TYPE);
        exchange.sendResponseHeaders(a.status, a.body.length);
        exchange.getResponseBody().write(a.body);
      } catch (Exception e) {
        e.printStackTrace();
      }
    });
    server.setExecutor(java.util.concurrent.Executors.newCachedThreadPool());
    server.start();
    System.out.println("WssPeer serving on 127.0.0.1:" + server.getAddress().getPort());
    System.out.flush();
  }
}
