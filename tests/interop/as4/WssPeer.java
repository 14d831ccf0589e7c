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
    if (args.length == 2 && args[0].equals("batch")) {  // one "sign ..." command line per line: one JVM for many
      for (String line : Files.readAllLines(Path.of(args[1])))
        if (!line.isBlank()) sign(line.trim().split(" +"));
      return;
    }
    if (args.length < 5 || !args[0].equals("sign")) {
      System.err.println("usage: java WssPeer.java sign IN.xml OUT.xml KEY.pk8 CERT.pem [options] [CID=FILE ...]\n"
                         + "       java WssPeer.java verify RECEIPT.xml SIGNER.pem SENT.xml\n"
                         + "       java WssPeer.java batch FILE   (a sign command line per line)");
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
    if (encryptFor != null) encrypt(doc, security, encryptFor, order, attachments, files);

    try (OutputStream out = Files.newOutputStream(Path.of(args[2]))) {
      javax.xml.transform.Transformer t = TransformerFactory.newInstance().newTransformer();
      t.setOutputProperty(javax.xml.transform.OutputKeys.OMIT_XML_DECLARATION, "yes");
      t.transform(new DOMSource(doc), new StreamResult(out));
    }
  }
}
