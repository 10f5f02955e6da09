// What a run measured, as JSON (ipu_lower_emulator/Measurement.hpp).
#include <ipu_lower_emulator/Measurement.hpp>
#include <ipu_lower_emulator/Support.hpp>

namespace poplar {
namespace emulator {

void stepHead(std::string &j, const StepStats &s) {
  j += "{\"name\": " + jsonString(s.name);
  jstr(j, "kind", s.kind);
  jnum(j, "executions", s.executions);
}

std::string Measurement::json() const {
  std::uint64_t syncs = 0, modelledSyncs = 0;
  for (const StepStats &s : steps)
    (s.modelled ? modelledSyncs : syncs) += s.syncs;
  std::string j = "{\"program\": " + std::to_string(program);
  jnum(j, "engine_runs", engineRuns);
  jnum(j, "syncs", syncs);
  jnum(j, "modelled_syncs", modelledSyncs);
  j += ", \"steps\": [";
  for (std::size_t i = 0; i < steps.size(); ++i) {
    const StepStats &s = steps[i];
    if (i)
      j += ", ";
    stepHead(j, s);
    jnum(j, "syncs", s.syncs);
    jnum(j, "busiest_tile_exchange_bytes", s.busiestBytes);
    jnum(j, "exchange_bytes", s.exchangeBytes);
    j += s.modelled ? ", \"modelled\": true}" : ", \"modelled\": false}";
  }
  j += "], \"vertex_columns\": [\"tile\", \"elements_read\", \"elements_written\"], \"compute_sets\": [";
  for (std::size_t i = 0; i < computeSets.size(); ++i) {
    const ComputeSetMeasure &c = computeSets[i];
    j += i ? ", {\"name\": " : "{\"name\": ";
    j += jsonString(c.name);
    jnum(j, "runs", c.runs);
    jnum(j, "busiest_tile", c.busiestTile);
    jnum(j, "busiest_tile_exchange_bytes", c.busiestBytes);
    jnum(j, "exchange_bytes", c.exchangeBytes);
    j += ", \"vertices\": [";
    for (std::size_t v = 0; v < c.vertices.size(); ++v) {
      const VertexElements &e = c.vertices[v];
      j += v ? ", [" : "[";
      j += std::to_string(e.tile) + ", " + std::to_string(e.read) + ", " + std::to_string(e.written) + "]";
    }
    j += "]}";
  }
  return j + "]}";
}

} // namespace emulator
} // namespace poplar
