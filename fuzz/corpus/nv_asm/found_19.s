inc'''''''''''''''''''''''''''''''''''''''''''''''''''''''''''''''ÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿ pb,~ pb
start:
    mpect32 sem, 0x1234
.dump sem, '''''''''''''''''''''''nel
    dim 0            # host NOP by offse''t
    .subch'' 1, 0xB0B5
  '''''  immd 1, LAUÿ''' 9-GUÿÿDMA, 0x81 2
   end_pb_segSment
