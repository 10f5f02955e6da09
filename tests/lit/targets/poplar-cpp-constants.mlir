// RUN: ipu-opt %s -t poplar-cpp | filecheck %s

// A constant's values are a table beside the tile maps, in the host type of its
// elements (float for half: every half is a float, which Poplar converts exactly), each
// value the shortest literal that reads back exactly, infinities and NaNs by name;
// graph.addConstant reads the table through an ArrayRef of its size. <limits> is
// included for them. The half values (infinities and a NaN among them) are given as
// their bytes.

poplar.host_program @consts arch "ipu2" args [] : [] build {
  %h = poplar.add_constant "h" : !poplar.tensor<2x5xf16> = dense<"0x662EFF7B007C00FC007E0080003C004101000042">
  poplar.map_tensor %h over <0 to 1 x 10> : !poplar.tensor<2x5xf16>
  %b = poplar.add_constant "b" : !poplar.tensor<2xi1> = dense<[true, false]>
  poplar.map_tensor %b over <0 to 1 x 2> : !poplar.tensor<2xi1>
  %u = poplar.add_constant "u" : !poplar.tensor<2xui32> = dense<[4000000000, 7]>
  poplar.map_tensor %u over <0 to 1 x 2> : !poplar.tensor<2xui32>
  %k = poplar.add_constant "k" : !poplar.tensor<f32> = dense<0.1>
  poplar.map_tensor %k over <3 to 4 x 1> : !poplar.tensor<f32>
  %p = poplar.sequence()
  poplar.engine %p
} run {
  poplar.run 0
}

// CHECK:      #include <limits>
// CHECK:      const float h_values[] = {
// CHECK-NEXT:   0.099975586f, 65504.0f, std::numeric_limits<float>::infinity(), -std::numeric_limits<float>::infinity(), std::numeric_limits<float>::quiet_NaN(), -0.0f, 1.0f, 2.5f,
// CHECK-NEXT:   5.9604645e-08f, 3.0f,
// CHECK-NEXT: };
// CHECK-NEXT: const bool b_values[] = {
// CHECK-NEXT:   true, false,
// CHECK-NEXT: };
// CHECK-NEXT: const unsigned int u_values[] = {
// CHECK-NEXT:   4000000000, 7,
// CHECK-NEXT: };
// CHECK-NEXT: const float k_values[] = {
// CHECK-NEXT:   0.1f,
// CHECK-NEXT: };
// CHECK:      poplar::Tensor h = graph.addConstant(poplar::HALF, {2, 5}, poplar::ArrayRef<float>(h_values, 10), "h");
// CHECK:      poplar::Tensor b = graph.addConstant(poplar::BOOL, {2}, poplar::ArrayRef<bool>(b_values, 2), "b");
// CHECK:      poplar::Tensor u = graph.addConstant(poplar::UNSIGNED_INT, {2}, poplar::ArrayRef<unsigned int>(u_values, 2), "u");
// CHECK:      poplar::Tensor k = graph.addConstant(poplar::FLOAT, {}, poplar::ArrayRef<float>(k_values, 1), "k");
// CHECK-NEXT: graph.setTileMapping(k, 3);
