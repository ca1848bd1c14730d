// f05-slow-cpp -- class561 fixture: burns CPU until it is killed.
//
// Why it exists: tests the CPU-time limit.  It reads input.txt and then
// busy-loops forever in one thread, never writing output.txt, so its CPU
// time reaches the time it has left and the referee must kill it.
// Expected: loses every game on its first move, reason time.
//
// Compile: g++ -std=c++17 -O2 -o homework homework.cpp
// Run:     ./homework
#include <fstream>
#include <string>

int main() {
  std::ifstream f("input.txt");
  std::string line;
  while (std::getline(f, line)) {
  }
  volatile unsigned long spin = 0;  // volatile: the loop is not optimised away
  for (;;) ++spin;
}
