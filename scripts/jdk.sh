# Shared by ./assay and ./test: finds a JDK 21+ (the search in launcher.sh, which the distribution's bin/assay uses
# too) and exports JAVA_HOME, or explains what to install. Sourced, not run.

# shellcheck source=scripts/launcher.sh
. "$(dirname "${BASH_SOURCE[0]}")/launcher.sh"

# The search forks a few dozen processes (about 0.2 s); its result is remembered for the same JAVA_HOME, PATH
# and ASSAY_JDK_DIRS.
jdk_cache="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/target/jdk-home"
jdk_key="${JAVA_HOME:-}|${PATH:-}|${ASSAY_JDK_DIRS:-}"
jdk=""
if [ -f "$jdk_cache" ]; then
  IFS=$'\t' read -r cached_key cached_jdk jdk_major < "$jdk_cache" || true
  if [ "$cached_key" = "$jdk_key" ] && [ -x "$cached_jdk/bin/javac" ]; then
    jdk="$cached_jdk"
  fi
fi
if [ -z "$jdk" ]; then
  if ! find_java jdk; then
    cat >&2 <<'MSG'
assay: no JDK 21 or newer was found (looked at $JAVA_HOME, java on the PATH, /usr/lib/jvm, /opt,
~/.sdkman and ~/.jdks, or ASSAY_JDK_DIRS). Assay needs a full JDK (with javac) of version 21 or newer, for example:
  Debian/Ubuntu: apt-get install -y openjdk-21-jdk   (or Temurin 21/25 from adoptium.net)
  macOS:         brew install openjdk@21
then run ./assay again, or point JAVA_HOME at it: JAVA_HOME=/path/to/jdk ./assay ...
MSG
    exit 3
  fi
  jdk="$java_home"
  jdk_major="$java_home_major"
  mkdir -p "$(dirname "$jdk_cache")" 2>/dev/null \
    && printf '%s\t%s\t%s\n' "$jdk_key" "$jdk" "$jdk_major" > "$jdk_cache" 2>/dev/null || true
fi
export JAVA_HOME="$jdk"
# Maven itself calls sun.misc.Unsafe, which JDK 23+ warns about on every build; the flag exists only there.
if [ "$jdk_major" -ge 23 ]; then
  export MAVEN_OPTS="${MAVEN_OPTS:-} --sun-misc-unsafe-memory-access=allow"
fi
