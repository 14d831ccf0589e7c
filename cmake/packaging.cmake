# `cpack` (or `cmake --build build --target package`): a Debian package that installs edihub as
# a service. /usr/bin/edihub; the gateway config and the demo partner profiles in /etc/edihub
# (conffiles; the private key 0640 root:edihub through dpkg-statoverride); the systemd units
# for the server and the nightly purge; the data in /var/lib/edihub, made by postinst with the
# `edihub` system user. Dependencies from dpkg-shlibdeps. Checked by
# tests/integration/deb_install_test.sh.
set(EDIHUB_PKG ${PROJECT_SOURCE_DIR}/tools/packaging)
set(EDIHUB_CERTS ${PROJECT_SOURCE_DIR}/partners/certs)

install(TARGETS edihub RUNTIME DESTINATION bin)

set(EDIHUB_PUBLIC PERMISSIONS OWNER_READ OWNER_WRITE GROUP_READ WORLD_READ)
install(FILES ${EDIHUB_PKG}/edihub.xml DESTINATION /etc/edihub ${EDIHUB_PUBLIC})
install(FILES ${PROJECT_SOURCE_DIR}/partners/acme.xml ${PROJECT_SOURCE_DIR}/partners/staedi.xml
  DESTINATION /etc/edihub/partners ${EDIHUB_PUBLIC})
# Our identity and the demo partner's certificate; the partner's private key stays out: the
# gateway never needs it (only the demo sender, tools/send-as2, does).
install(FILES ${EDIHUB_CERTS}/edihub.crt ${EDIHUB_CERTS}/acme.crt ${EDIHUB_CERTS}/README.md
  DESTINATION /etc/edihub/partners/certs ${EDIHUB_PUBLIC})
# Group edihub does not exist when the package is built: postinst sets root:edihub 0640 with
# dpkg-statoverride, which dpkg keeps on upgrades.
install(FILES ${EDIHUB_CERTS}/edihub.key DESTINATION /etc/edihub/partners/certs
  PERMISSIONS OWNER_READ OWNER_WRITE)

install(FILES ${PROJECT_SOURCE_DIR}/tools/systemd/edihub.service
  ${PROJECT_SOURCE_DIR}/tools/systemd/edihub-purge.service ${PROJECT_SOURCE_DIR}/tools/systemd/edihub-purge.timer
  DESTINATION /lib/systemd/system ${EDIHUB_PUBLIC})
install(FILES ${PROJECT_SOURCE_DIR}/tools/grafana/edihub-dashboard.json DESTINATION share/edihub/grafana
  ${EDIHUB_PUBLIC})
install(FILES ${PROJECT_SOURCE_DIR}/tools/prometheus/edihub-alerts.yml DESTINATION share/edihub/prometheus
  ${EDIHUB_PUBLIC})
install(FILES ${PROJECT_SOURCE_DIR}/samples/edihub-postgresql.xml DESTINATION share/doc/edihub/examples
  ${EDIHUB_PUBLIC})
install(FILES ${PROJECT_SOURCE_DIR}/README.md DESTINATION share/doc/edihub ${EDIHUB_PUBLIC})

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME edihub)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_CONTACT "edihub maintainers <edihub@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "On-prem EDI gateway (AS2, AS4, X12, EDIFACT) with exactly-once handling")
set(CPACK_PACKAGE_DESCRIPTION "edihub receives AS2 and AS4 messages carrying X12 and EDIFACT interchanges,\n\
recognises every retransmission, books despatch advices and invoices exactly once and answers\n\
each retransmission with the receipt it gave the first time. Runs as the edihub.service\n\
systemd unit (config in /etc/edihub, data in /var/lib/edihub).")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION net)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# Appended to by dpkg-shlibdeps; adduser for postinst.
set(CPACK_DEBIAN_PACKAGE_DEPENDS "adduser")
set(CPACK_DEBIAN_PACKAGE_CONTROL_EXTRA
  ${EDIHUB_PKG}/conffiles ${EDIHUB_PKG}/postinst ${EDIHUB_PKG}/prerm ${EDIHUB_PKG}/postrm)
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)
include(CPack)
