# `cpack` (or `cmake --build build --target package`): a Debian package that installs edihub as
# a service. /usr/bin/edihub; the gateway config in /etc/edihub (a conffile; the identity is
# made per machine by postinst, the demo partners are examples in /usr/share/doc); the systemd units
# for the server and the nightly purge; the data in /var/lib/edihub, made by postinst with the
# `edihub` system user. Dependencies from dpkg-shlibdeps. Checked by
# tests/integration/deb_install_test.sh.
set(EDIHUB_PKG ${PROJECT_SOURCE_DIR}/tools/packaging)
set(EDIHUB_CERTS ${PROJECT_SOURCE_DIR}/partners/certs)

install(TARGETS edihub RUNTIME DESTINATION bin)

set(EDIHUB_PUBLIC PERMISSIONS OWNER_READ OWNER_WRITE GROUP_READ WORLD_READ)
install(FILES ${EDIHUB_PKG}/edihub.xml DESTINATION /etc/edihub ${EDIHUB_PUBLIC})
# No key ships: postinst makes the machine's own identity (edihub new-identity) in
# /etc/edihub/identity. The partners directory starts empty; the demo partners are examples
# an operator copies in (README, "Install as a service").
install(DIRECTORY DESTINATION /etc/edihub/partners)
install(FILES ${PROJECT_SOURCE_DIR}/partners/acme.xml ${PROJECT_SOURCE_DIR}/partners/staedi.xml
  DESTINATION share/doc/edihub/examples/partners ${EDIHUB_PUBLIC})
install(FILES ${EDIHUB_CERTS}/acme.crt DESTINATION share/doc/edihub/examples/partners/certs ${EDIHUB_PUBLIC})
install(FILES ${EDIHUB_PKG}/copyright DESTINATION share/doc/edihub ${EDIHUB_PUBLIC})
# A native package's changelog, compressed as Debian policy wants it (gzip -9n: reproducible).
add_custom_command(OUTPUT ${CMAKE_BINARY_DIR}/changelog.gz
  COMMAND sh -c "gzip -9nc '${EDIHUB_PKG}/changelog' > '${CMAKE_BINARY_DIR}/changelog.gz'"
  DEPENDS ${EDIHUB_PKG}/changelog VERBATIM)
add_custom_target(edihub_changelog ALL DEPENDS ${CMAKE_BINARY_DIR}/changelog.gz)
install(FILES ${CMAKE_BINARY_DIR}/changelog.gz DESTINATION share/doc/edihub ${EDIHUB_PUBLIC})
add_custom_command(OUTPUT ${CMAKE_BINARY_DIR}/edihub.1.gz
  COMMAND sh -c "gzip -9nc '${EDIHUB_PKG}/edihub.1' > '${CMAKE_BINARY_DIR}/edihub.1.gz'"
  DEPENDS ${EDIHUB_PKG}/edihub.1 VERBATIM)
add_custom_target(edihub_manpage ALL DEPENDS ${CMAKE_BINARY_DIR}/edihub.1.gz)
install(FILES ${CMAKE_BINARY_DIR}/edihub.1.gz DESTINATION share/man/man1 ${EDIHUB_PUBLIC})

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
set(CPACK_PACKAGE_CONTACT "edihub maintainers <maintainers@edihub.example.org>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "On-prem EDI gateway (AS2, AS4, X12, EDIFACT) with exactly-once handling")
set(CPACK_PACKAGE_DESCRIPTION "edihub receives AS2 and AS4 messages carrying X12 and EDIFACT\n\
interchanges, recognises every retransmission, books despatch advices and\n\
invoices exactly once and answers each retransmission with the receipt it\n\
gave the first time. Runs as the edihub.service systemd unit (config in\n\
/etc/edihub, data in /var/lib/edihub).")
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
