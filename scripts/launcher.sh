# Shared by the launchers: ./assay and ./test (through scripts/jdk.sh) in a source checkout, and bin/assay of the
# distribution archive, which ships this file as lib/launcher.sh. One search for a Java and one plug-in class path, so
# that both launchers find the same Java and load the same plug-ins. Sourced, not run; defines functions only.

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

# find_java jdk|runtime: looks for a Java 21 or newer at $JAVA_HOME, then `java` on the PATH, then in the usual
# installation directories (/usr/lib/jvm, /opt, ~/.sdkman, ~/.jdks, macOS's; ASSAY_JDK_DIRS, directories separated
# by ':', replaces that list). `jdk` also needs javac (the source checkout compiles), `runtime` a java alone (the
# archive). Sets java_home and java_home_major and returns 0, or returns 1; either way java_seen lists the javas that
# did not do, with the reason.
find_java() {
  local need="$1" candidates=() dir pattern
  java_home="" java_home_major="" java_seen=()
  [ -n "${JAVA_HOME:-}" ] && candidates+=("$JAVA_HOME/bin/java")
  command -v java >/dev/null 2>&1 && candidates+=("$(command -v java)")
  if [ -n "${ASSAY_JDK_DIRS:-}" ]; then
    local dirs=()
    IFS=':' read -r -a dirs <<< "$ASSAY_JDK_DIRS"
    for pattern in ${dirs[@]+"${dirs[@]}"}; do
      [ -n "$pattern" ] || continue
      for dir in "$pattern"/*; do
        [ -x "$dir/bin/java" ] && candidates+=("$dir/bin/java")
      done
    done
  else
    for dir in /usr/lib/jvm/* /opt/java/* /opt/jdk* /usr/local/java/* "$HOME"/.sdkman/candidates/java/* \
               "$HOME"/.jdks/* /Library/Java/JavaVirtualMachines/*/Contents/Home; do
      [ -x "$dir/bin/java" ] && candidates+=("$dir/bin/java")
    done
  fi
  local candidate real major
  for candidate in ${candidates[@]+"${candidates[@]}"}; do
    [ -x "$candidate" ] || { java_seen+=("$candidate (not found)"); continue; }
    real="$(readlink -f "$candidate" 2>/dev/null || echo "$candidate")"
    major="$(java_major "$real" || true)"
    if [ -z "$major" ] || [ "$major" -lt 21 ]; then
      java_seen+=("$candidate (version ${major:-unknown})")
    elif [ "$need" = jdk ] && [ ! -x "$(dirname "$real")/javac" ]; then
      java_seen+=("$candidate (version $major, no javac)")
    else
      java_home="$(dirname "$(dirname "$real")")"
      java_home_major="$major"
      return 0
    fi
  done
  return 1
}

world_writable() {
  [ -n "$(find "$1" -maxdepth 0 -perm -0002 2>/dev/null)" ]
}

# plugin_classpath ASSAY_HOME: prints the plug-ins' class path entries (docs/extending.md), each followed by ':':
# every jar in ASSAY_HOME/plugins, then the entries of $ASSAY_PLUGINS. An empty entry of $ASSAY_PLUGINS (as
# `export ASSAY_PLUGINS="$ASSAY_PLUGINS:/x.jar"` leaves when it was unset) is dropped: Java would read it as the
# working directory, and running Assay in a checkout would load that checkout's classes. A plug-in folder or jar
# that anyone may write is named in one warning on stderr: whoever can write it can run code as the user.
plugin_classpath() {
  local plugins_dir="$1/plugins" entries=() writable=() entry
  if [ -d "$plugins_dir" ]; then
    world_writable "$plugins_dir" && writable+=("$plugins_dir")
    for entry in "$plugins_dir"/*.jar; do
      [ -f "$entry" ] && entries+=("$entry")
    done
  fi
  local listed=()
  IFS=':' read -r -a listed <<< "${ASSAY_PLUGINS:-}"
  for entry in ${listed[@]+"${listed[@]}"}; do
    [ -n "$entry" ] && entries+=("$entry")
  done
  for entry in ${entries[@]+"${entries[@]}"}; do
    world_writable "$entry" && writable+=("$entry")
    printf '%s:' "$entry"
  done
  if [ "${#writable[@]}" -gt 0 ]; then
    echo "assay: warning: anyone on this machine may change these plug-ins, which run with your rights" \
         "(chmod o-w them): ${writable[*]}" >&2
  fi
  return 0
}

invoked_as() {
  # How the user ran the launcher given as $1 (its $0), so that the commands the CLI suggests (`assay init`'s "Next:")
  # work as they are typed: `assay` when that name on the PATH is this launcher, else the path they gave (./assay).
  if [ "$(command -v assay 2>/dev/null)" -ef "$1" ]; then
    echo assay
  else
    case "$1" in */*) echo "$1" ;; *) echo "./$1" ;; esac
  fi
}
