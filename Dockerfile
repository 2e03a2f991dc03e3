# One image for the server (`assay serve`) and the workers (`assay worker`), built from the distribution archive that
# `./mvnw package` leaves in assay-cli/target, so the image holds exactly what a user installs. docs/deploy.md.
#
#   ./mvnw -B package -DskipTests
#   docker build --build-arg VERSION=0.1.0-SNAPSHOT -t assay:0.1.0-SNAPSHOT .
FROM eclipse-temurin:21-jre

ARG VERSION=0.1.0-SNAPSHOT

# ADD unpacks the archive: /opt/assay-<version>/{bin,lib,docs,examples}.
ADD assay-cli/target/assay-${VERSION}.tar.gz /opt/
RUN ln -s /opt/assay-${VERSION} /opt/assay \
    && useradd --system --uid 10001 --home-dir /var/lib/assay --create-home assay \
    && mkdir -p /var/lib/assay/suites /var/lib/assay/workspaces \
    && chown -R assay /var/lib/assay

# The database is PostgreSQL, given with --db; ASSAY_HOME keeps only the token file, plug-ins and workspaces.
ENV ASSAY_HOME=/var/lib/assay
USER 10001
WORKDIR /var/lib/assay
EXPOSE 7070
ENTRYPOINT ["/opt/assay/bin/assay"]
CMD ["serve", "--host", "0.0.0.0", "--port", "7070", "--suites", "/var/lib/assay/suites"]
