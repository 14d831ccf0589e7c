# A Peppol-like PKI made with `openssl ca` (sourced): a root CA, an access
# point CA under it, access point certificates whose CN is the seat id, a CRL,
# and a second root for a certificate no configured CA vouches for.
#
#   peppol_pki DIR   makes, in DIR:
#     root.crt             the root CA (a trust anchor the gateway may be given)
#     ap-ca.crt            the AP CA (what the gateway's <peppol><ap-ca> names)
#     ap-ca.crl            the AP CA's CRL: POP000124 revoked
#     POP000999.{crt,key,pk8}  our receiving access point (C3)
#     POP000123.{crt,key,pk8}  a sending access point in good standing
#     POP000124.{crt,key,pk8}  revoked
#     POP000125.{crt,key,pk8}  expired (valid 2020-01-01 to 2021-01-01)
#     POP000126.{crt,key,pk8}  issued by another root ("other-ca")
#     POP000127.{crt,key,pk8}  good, for OCSP and other tests
# .pk8 is the PKCS#8 DER key the JDK peer reads.

_pki_ca_config() {  # _pki_ca_config DIR NAME: an `openssl ca` config for CA NAME in DIR/NAME
  local d=$1/$2
  mkdir -p "$d/new"
  : >"$d/index.txt"
  echo 1000 >"$d/serial"
  echo 1000 >"$d/crlnumber"
  cat >"$d/ca.cnf" <<CNF
[ ca ]
default_ca = this
[ this ]
dir = $d
database = $d/index.txt
new_certs_dir = $d/new
serial = $d/serial
crlnumber = $d/crlnumber
certificate = $d/ca.crt
private_key = $d/ca.key
default_md = sha256
default_days = 365
default_crl_days = 30
policy = any
unique_subject = no
copy_extensions = none
[ any ]
commonName = supplied
organizationName = optional
countryName = optional
[ v3_ca ]
basicConstraints = critical, CA:true
keyUsage = critical, keyCertSign, cRLSign
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid:always
[ v3_ap ]
basicConstraints = critical, CA:false
keyUsage = critical, digitalSignature, keyEncipherment, dataEncipherment, keyAgreement
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid:always
CNF
}

_pki_root() {  # _pki_root DIR NAME CN
  _pki_ca_config "$1" "$2"
  openssl req -x509 -new -newkey rsa:2048 -nodes -keyout "$1/$2/ca.key" -out "$1/$2/ca.crt" -days 3650 \
    -subj "/O=Test Peppol/CN=$3" -addext "basicConstraints=critical,CA:true" \
    -addext "keyUsage=critical,keyCertSign,cRLSign" 2>/dev/null
}

_pki_issue() {  # _pki_issue DIR CA CN EXT [openssl ca options]: DIR/CN.{key,crt,pk8}
  local dir=$1 ca=$2 cn=$3 ext=$4
  shift 4
  openssl req -new -newkey rsa:2048 -nodes -keyout "$dir/$cn.key" -out "$dir/$cn.csr" -subj "/O=Test AP/C=NO/CN=$cn" \
    2>/dev/null
  openssl ca -batch -config "$dir/$ca/ca.cnf" -extensions "$ext" -in "$dir/$cn.csr" -out "$dir/$cn.crt" "$@" \
    >/dev/null 2>&1 || return 1
  openssl x509 -in "$dir/$cn.crt" -out "$dir/$cn.crt"  # PEM only, without the text dump
  openssl pkcs8 -topk8 -nocrypt -outform DER -in "$dir/$cn.key" -out "$dir/$cn.pk8"
}

peppol_pki() {
  local dir=$1
  mkdir -p "$dir"
  _pki_root "$dir" root "Test Peppol Root CA"
  _pki_ca_config "$dir" apca
  openssl req -new -newkey rsa:2048 -nodes -keyout "$dir/apca/ca.key" -out "$dir/apca.csr" \
    -subj "/O=Test Peppol/CN=Test Peppol Access Point CA" 2>/dev/null
  openssl ca -batch -config "$dir/root/ca.cnf" -extensions v3_ca -in "$dir/apca.csr" -out "$dir/apca/ca.crt" \
    -days 1825 >/dev/null 2>&1 || return 1
  openssl x509 -in "$dir/apca/ca.crt" -out "$dir/apca/ca.crt"
  cp "$dir/root/ca.crt" "$dir/root.crt"
  cp "$dir/apca/ca.crt" "$dir/ap-ca.crt"
  local cn
  for cn in POP000999 POP000123 POP000124 POP000127; do _pki_issue "$dir" apca "$cn" v3_ap || return 1; done
  _pki_issue "$dir" apca POP000125 v3_ap -startdate 20200101000000Z -enddate 20210101000000Z || return 1
  openssl ca -batch -config "$dir/apca/ca.cnf" -revoke "$dir/POP000124.crt" -crl_reason keyCompromise \
    >/dev/null 2>&1 || return 1
  openssl ca -batch -config "$dir/apca/ca.cnf" -gencrl -out "$dir/ap-ca.crl" >/dev/null 2>&1 || return 1
  _pki_root "$dir" other "Other Root CA"
  _pki_issue "$dir" other POP000126 v3_ap || return 1
}
