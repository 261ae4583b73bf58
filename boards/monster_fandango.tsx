<?xml version="1.0" encoding="UTF-8"?>
<tileset version="1.8" tiledversion="1.8.2" name="monster_fandango" tilewidth="56" tileheight="64" tilecount="9" columns="4">
 <image source="monster_fandango_tiles.png" width="224" height="192"/>
 <tile id="0">
  <properties>
   <property name="terrain" value="grass"/>
  </properties>
 </tile>
 <tile id="1">
  <properties>
   <property name="terrain" value="forest"/>
  </properties>
 </tile>
 <tile id="2">
  <properties>
   <property name="terrain" value="hills"/>
  </properties>
 </tile>
 <tile id="3">
  <properties>
   <property name="terrain" value="meadow"/>
  </properties>
 </tile>
 <tile id="4">
  <properties>
   <property name="corner" type="bool" value="true"/>
  </properties>
 </tile>
 <tile id="5">
  <properties>
   <property name="end" value="west"/>
  </properties>
 </tile>
 <tile id="6">
  <properties>
   <property name="end" value="east"/>
  </properties>
 </tile>
 <tile id="7">
  <properties>
   <property name="corner" type="bool" value="true"/>
   <property name="end" value="west"/>
  </properties>
 </tile>
 <tile id="8">
  <properties>
   <property name="corner" type="bool" value="true"/>
   <property name="end" value="east"/>
  </properties>
 </tile>
</tileset>
