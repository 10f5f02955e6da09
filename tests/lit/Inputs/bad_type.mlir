sdfg.sdfg @x args ["q"] symbols [] {
  %x = sdfg.container "q" : !sdfg.array<3 x f99>
}
