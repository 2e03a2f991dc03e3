# Shared by ./assay and ./test: finds a JDK 21+ and exports JAVA_HOME, or explains what to install.
# Sourced, not run.

java_major() {
  # Prints the feature version of the given java binary (17, 21, 25...), or nothing. A JDK's `release` file says
  # it without starting a JVM (each start costs a tenth of a second); a java without one is asked.
  local release
  release="$(dirname "$(dirname "$1")")/release"
  if [ -f "$release" ]; then
    sed -n 's/^JAVA_VERSION="\([0-9][0-9]*\).*/\1/p' "$release" | head -n 1
  else
    "$1" -XshowSettings:properties -version 2>&1 \
      | sed -n 's/^ *java\.specification\.version = \([0-9][0-9]*\).*/\1/p' | head -n 1
  fi
}

has_javac() {
  [ -x "$(dirname "$1")/javac" ]
}

find_jdk() {
  local candidates=()
  [ -n "${JAVA_HOME:-}" ] && candidates+=("$JAVA_HOME/bin/java")
  command -v java >/dev/null 2>&1 && candidates+=("$(command -v java)")
  local dir
  for dir in /usr/lib/jvm/* /opt/java/* /opt/jdk* /usr/local/java/* "$HOME"/.sdkman/candidates/java/* \
             "$HOME"/.jdks/* /Library/Java/JavaVirtualMachines/*/Contents/Home; do
    [ -x "$dir/bin/java" ] && candidates+=("$dir/bin/java")
  done
  local candidate real major
  for candidate in "${candidates[@]}"; do
    real="$(readlink -f "$candidate" 2>/dev/null || echo "$candidate")"
    major="$(java_major "$real" || true)"
    if [ -n "$major" ] && [ "$major" -ge 21 ] && has_javac "$real"; then
      dirname "$(dirname "$real")"
      return 0
    fi
  done
  return 1
}

# The search forks a few dozen processes (about 0.2 s); its result is remembered for the same JAVA_HOME and PATH.
jdk_cache="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/target/jdk-home"
jdk_key="${JAVA_HOME:-}|${PATH:-}"
jdk=""
if [ -f "$jdk_cache" ]; then
  IFS=$'\t' read -r cached_key cached_jdk jdk_major < "$jdk_cache" || true
  if [ "$cached_key" = "$jdk_key" ] && [ -x "$cached_jdk/bin/javac" ]; then
    jdk="$cached_jdk"
  fi
fi
if [ -z "$jdk" ]; then
  if ! jdk="$(find_jdk)"; then
    cat >&2 <<'MSG'
assay: no JDK 21 or newer was found (looked at $JAVA_HOME, java on the PATH, /usr/lib/jvm, /opt,
~/.sdkman and ~/.jdks). Assay needs a full JDK (with javac) of version 21 or newer, for example:
  Debian/Ubuntu: apt-get install -y openjdk-21-jdk   (or Temurin 21/25 from adoptium.net)
  macOS:         brew install openjdk@21
then run ./assay again, or point JAVA_HOME at it: JAVA_HOME=/path/to/jdk ./assay ...
MSG
    exit 3
  fi
  jdk_major="$(java_major "$jdk/bin/java")"
  mkdir -p "$(dirname "$jdk_cache")" 2>/dev/null \
    && printf '%s\t%s\t%s\n' "$jdk_key" "$jdk" "$jdk_major" > "$jdk_cache" 2>/dev/null || true
fi
export JAVA_HOME="$jdk"
# Maven itself calls sun.misc.Unsafe, which JDK 23+ warns about on every build; the flag exists only there.
if [ "$jdk_major" -ge 23 ]; then
  export MAVEN_OPTS="${MAVEN_OPTS:-} --sun-misc-unsafe-memory-access=allow"
fi
