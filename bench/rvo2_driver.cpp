// Runs one crowd scenario with RVO2 (github.com/snape/RVO2) for bench/bench_crowd.py.
//
// Built by bench/rvo2_peer.py with g++ -O2 against RVO2's sources, one thread.
// Reads the scenario as whitespace-separated text on stdin:
//
//   time_step neighbor_dist max_neighbors time_horizon time_horizon_obst
//   max_steps arrival_tolerance waypoint_reach stall_seconds settle_seconds
//   agents N
//   N lines: x y radius max_speed idle waypoint_count wx1 wy1 ... (the goal last; an idle agent's one
//            waypoint is where it stands)
//   obstacles M
//   M lines: vertex_count x1 y1 x2 y2 ... (counter-clockwise)
//
// Each step sets every agent's preferred velocity toward its current waypoint
// (full speed; toward the last one, no faster than reaches it in one step),
// then calls doStep; only these two are timed. An agent takes the next
// waypoint once it can see it past the obstacles with its radius (RVO2's
// queryVisibility, as RVO2's Roadmap example steers), or once within
// waypoint_reach of the current one (a unit filling a corridor sees nothing
// past its walls). An ordered agent
// has arrived while within arrival_tolerance of its goal; idle agents head
// back to where they stood. The run stops at max_steps, once every ordered
// agent has arrived and every idle one is back (or settle_seconds after the
// last arrival), or once no agent still under way has come closer to its
// waypoint for stall_seconds (stuck for good).
//
// Writes every agent's position after every step to the file named by the
// first argument (float32 x, y per agent, step after step) and prints:
//   steps S
//   step_ns t1 ... tS          (nanoseconds per step)
//   all_arrived_step A         (first step after which every ordered agent had arrived; -1 if none)
//   arrived K                  (ordered agents within the tolerance at the end)
//   stuck 0|1                  (the run stopped because nobody came closer)

#include <chrono>
#include <cmath>
#include <cstddef>
#include <fstream>
#include <iostream>
#include <random>
#include <string>
#include <vector>

#include "RVO.h"

namespace {

struct Agent {
  bool idle = false;
  std::vector<RVO::Vector2> waypoints;
  std::size_t next = 0;  // the waypoint headed for
  std::size_t seen = 0;  // the waypoint ``best`` is about
  float best = 0.0F;     // the closest it came to that waypoint
  long progress_step = 0;
};

bool expect(std::istream &in, const std::string &word) {
  std::string read;
  in >> read;
  if (read != word) {
    std::cerr << "rvo2_driver: expected '" << word << "', read '" << read << "'\n";
    return false;
  }
  return true;
}

}  // namespace

int main(int argc, char **argv) {
  if (argc != 2) {
    std::cerr << "usage: rvo2_driver POSITIONS_FILE < scenario\n";
    return 2;
  }
  float time_step, neighbor_dist, time_horizon, time_horizon_obst, arrival, reach, stall_seconds, settle_seconds;
  std::size_t max_neighbors;
  long max_steps;
  std::cin >> time_step >> neighbor_dist >> max_neighbors >> time_horizon >> time_horizon_obst >> max_steps >> arrival >> reach >>
      stall_seconds >> settle_seconds;
  std::size_t count;
  if (!std::cin || !expect(std::cin, "agents") || !(std::cin >> count)) return 2;

  RVO::RVOSimulator simulator;
  simulator.setTimeStep(time_step);
  std::vector<Agent> agents(count);
  for (std::size_t i = 0; i < count; ++i) {
    float x, y, radius, speed;
    int idle;
    std::size_t waypoints;
    std::cin >> x >> y >> radius >> speed >> idle >> waypoints;
    agents[i].idle = idle != 0;
    for (std::size_t w = 0; w < waypoints; ++w) {
      float wx, wy;
      std::cin >> wx >> wy;
      agents[i].waypoints.push_back(RVO::Vector2(wx, wy));
    }
    if (!std::cin || waypoints == 0) {
      std::cerr << "rvo2_driver: bad agent " << i << "\n";
      return 2;
    }
    simulator.addAgent(RVO::Vector2(x, y), neighbor_dist, max_neighbors, time_horizon, time_horizon_obst, radius, speed);
    agents[i].best = RVO::abs(agents[i].waypoints[0] - RVO::Vector2(x, y));
  }
  std::size_t obstacles;
  if (!expect(std::cin, "obstacles") || !(std::cin >> obstacles)) return 2;
  for (std::size_t o = 0; o < obstacles; ++o) {
    std::size_t vertices;
    std::cin >> vertices;
    std::vector<RVO::Vector2> polygon;
    for (std::size_t v = 0; v < vertices; ++v) {
      float x, y;
      std::cin >> x >> y;
      polygon.push_back(RVO::Vector2(x, y));
    }
    if (!std::cin) {
      std::cerr << "rvo2_driver: bad obstacle " << o << "\n";
      return 2;
    }
    simulator.addObstacle(polygon);
  }
  simulator.processObstacles();

  std::ofstream positions(argv[1], std::ios::binary);
  std::mt19937 noise(1);  // RVO2's examples perturb preferred velocities a little against symmetric deadlocks
  std::uniform_real_distribution<float> unit(0.0F, 1.0F);
  const long stall_steps = static_cast<long>(stall_seconds / time_step);
  const long settle_steps = static_cast<long>(settle_seconds / time_step);
  std::vector<long> step_ns;
  long all_arrived_step = -1, step = 0;
  std::size_t arrived = 0;
  bool stuck = false;
  while (step < max_steps) {
    auto started = std::chrono::steady_clock::now();
    for (std::size_t i = 0; i < count; ++i) {
      Agent &agent = agents[i];
      const RVO::Vector2 position = simulator.getAgentPosition(i);
      while (agent.next + 1 < agent.waypoints.size() &&
             (RVO::abs(agent.waypoints[agent.next] - position) < reach ||
              simulator.queryVisibility(position, agent.waypoints[agent.next + 1], simulator.getAgentRadius(i)))) {
        ++agent.next;
      }
      RVO::Vector2 toward = agent.waypoints[agent.next] - position;
      const float distance = RVO::abs(toward);
      const float speed = simulator.getAgentMaxSpeed(i);
      const bool last = agent.next + 1 == agent.waypoints.size();
      const float wanted = last ? std::fmin(speed, distance / time_step) : speed;
      RVO::Vector2 preferred = distance > 0.0F ? toward * (wanted / distance) : RVO::Vector2();
      const float angle = unit(noise) * 6.2831853F, size = unit(noise) * 1e-4F * speed;
      simulator.setAgentPrefVelocity(i, preferred + size * RVO::Vector2(std::cos(angle), std::sin(angle)));
    }
    simulator.doStep();
    step_ns.push_back(std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - started).count());
    ++step;

    arrived = 0;
    std::size_t ordered = 0, home = 0, idle = 0;
    long last_progress = -1;
    for (std::size_t i = 0; i < count; ++i) {
      Agent &agent = agents[i];
      const RVO::Vector2 position = simulator.getAgentPosition(i);
      const float xy[2] = {position.x(), position.y()};
      positions.write(reinterpret_cast<const char *>(xy), sizeof xy);
      const float distance = RVO::abs(agent.waypoints[agent.next] - position);
      const bool there = agent.next + 1 == agent.waypoints.size() && distance <= arrival;
      if (agent.idle) {
        ++idle;
        home += there;
        continue;
      }
      ++ordered;
      arrived += there;
      if (agent.next != agent.seen || there || distance < agent.best - 0.1F) {
        agent.seen = agent.next;
        agent.best = distance;
        agent.progress_step = step;
      }
      if (!there && agent.progress_step > last_progress) last_progress = agent.progress_step;
    }
    if (arrived == ordered && all_arrived_step < 0) all_arrived_step = step;
    if (arrived == ordered && (home == idle || step - all_arrived_step >= settle_steps)) break;
    if (arrived < ordered && last_progress >= 0 && step - last_progress > stall_steps) {
      stuck = true;
      break;
    }
  }
  positions.close();
  std::cout << "steps " << step << "\nstep_ns";
  for (long ns : step_ns) std::cout << ' ' << ns;
  std::cout << "\nall_arrived_step " << all_arrived_step << "\narrived " << arrived << "\nstuck " << stuck << "\n";
  return positions ? 0 : 1;
}
