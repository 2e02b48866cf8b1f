# The judge as an Exercism test runner. Exercism runs it as
#   docker run --rm --network none --read-only \
#     --mount type=bind,src=SOLUTION_DIR,dst=/solution \
#     --mount type=bind,src=OUTPUT_DIR,dst=/output \
#     --tmpfs /tmp:rw IMAGE SLUG /solution /output
# so nothing is fetched at run time and only /output and /tmp are written:
# the runner cache and the scratch workspace live under /tmp.
FROM debian:bookworm-slim

RUN apt-get update \
 && apt-get install -y --no-install-recommends g++ cmake ninja-build pkg-config libfmt-dev libyaml-cpp-dev \
      libeigen3-dev libcli11-dev nlohmann-json3-dev libssl-dev libseccomp-dev libzip-dev zlib1g-dev libcpp-httplib-dev libboost-math-dev \
 && rm -rf /var/lib/apt/lists/*

WORKDIR /opt/test-runner
COPY CMakeLists.txt ./
COPY judge judge
COPY harness harness
COPY problems problems
COPY solutions solutions
COPY bin/run.sh bin/run.sh
RUN cmake -S . -B build -G Ninja -DJUDGE_BUILD_TESTS=OFF -DCMAKE_BUILD_TYPE=Release \
 && cmake --build build --target judge \
 && rm -rf build/judge/CMakeFiles build/harness/CMakeFiles

ENV JUDGE_CACHE_DIR=/tmp/judge-cache
ENTRYPOINT ["/opt/test-runner/bin/run.sh"]
